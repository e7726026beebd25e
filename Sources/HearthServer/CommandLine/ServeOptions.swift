public import HearthHTTP

/// Everything `hearth serve` is told on its command line.
public struct ServeOptions: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 9099
    public var dataDirectory = ".hearth"
    /// `sqlite:PATH` or `postgres://...`; `sqlite:<data>/hearth.db` when not given.
    public var databaseURL: String?
    /// The file holding the master key, in place of `HEARTH_MASTER_KEY` or `<data>/master.key`.
    public var masterKeyFile: String?
    public var configPath: String?
    /// Adds the development seed (and its `Bearer owner` credential) to configured projects.
    public var development = false
    /// The base of links Hearth makes (`<publicURL>/__/auth/action`).
    public var publicURL: String?
    public var threads = 0
    public var connectionLimit = 10_000
    /// 0 means no limit.
    public var perIPConnectionLimit = 1_000
    /// The proxies whose `X-Forwarded-For` names the client (`--trusted-proxies`).
    public var trustedProxies = TrustedProxies.none
    public var connectionTimeoutSeconds = 30
    public var requestHeadTimeoutMilliseconds = 10_000
    /// 0 means no minimum.
    public var bodyMinimumBytesPerSecond = 1_024
    public var maxBodyBytes = 1 << 20
    /// `--smtp` and the mail delivery timings.
    public var mail = MailServeOptions()
    /// Lets `POST /emulator/v1/clock` move the server's time forward (for tests only).
    public var testClock = false
    /// The inactivity sweeper's interval and the webhook retry back-off.
    public var installationSettings = InstallationServiceSettings()
    /// How long the lease on singleton work (sweeper, maintenance) lasts: a node that dies
    /// hands that work to another within this time.
    public var leaseSeconds = 30

    public init() {}

    /// Without a configuration file Hearth runs the development seed.
    public var runsDevelopmentSeed: Bool { configPath == nil || development }

    /// Whether other machines can connect: any host but `localhost` and the loopback
    /// addresses (`127.0.0.0/8`, `::1`).
    public var listensBeyondThisMachine: Bool {
        !(host == "localhost" || host == "::1" || host.hasPrefix("127."))
    }

    public var effectiveDatabaseURL: String { StoreLocation.databaseURL(databaseURL, dataDirectory: dataDirectory) }

    public var effectivePublicURL: String {
        if let publicURL { return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL }
        let shownHost = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return host.contains(":") && shownHost == host ? "http://[\(host)]:\(port)" : "http://\(shownHost):\(port)"
    }

    static let valuedFlags = Set([
        "host", "port", "data", "database", "master-key-file", "config", "public-url", "threads", "connection-limit",
        "per-ip-connection-limit", "connection-timeout", "request-head-timeout-ms", "body-min-rate", "max-body-bytes",
        "installation-sweep-interval-ms", "webhook-retry-base-ms", "lease-seconds", "trusted-proxies",
    ]).union(MailServeOptions.valuedFlags)

    public static let usage = """
        usage: hearth serve [--host 127.0.0.1] [--port 9099] [--data .hearth] [--database URL]
                            [--master-key-file FILE] [--config FILE] [--dev] [--public-url URL] [--smtp URL]
                            [--threads N] [--connection-limit N] [--per-ip-connection-limit N]
                            [--trusted-proxies ADDRESSES]
                            [--connection-timeout SECONDS] [--request-head-timeout-ms N]
                            [--body-min-rate BYTES_PER_SECOND] [--max-body-bytes N] [--test-clock]
                            [--installation-sweep-interval-ms N] [--webhook-retry-base-ms N]
                            [--lease-seconds N] [--mail-... (below)]

        Runs the server. Without --config it runs the development seed (project demo-project,
        API key demo-api-key, admin credential "Bearer owner") on 127.0.0.1.

          --host HOST             address to listen on (default 127.0.0.1)
          --port PORT             TCP port (default 9099; 0 picks a free one)
          --data DIR              data directory: database, master key (default .hearth)
          --database URL          sqlite:PATH or postgres://... (default sqlite:<data>/hearth.db)
          --master-key-file FILE  the master key, shared by every node of a database; else
                                  HEARTH_MASTER_KEY, else <data>/master.key (made on a first
                                  start, never while the database holds signing keys)
          --config FILE           JSON file with the production projects
          --dev                   also run the development seed next to --config projects
          --public-url URL        base URL of the links Hearth makes (default http://HOST:PORT)
          --threads N             HTTP worker threads (default: number of cores)
          --connection-limit N    open connections at most; one more gets 503 (default 10000)
          --per-ip-connection-limit N
                                  open connections from one client address; one more gets
                                  503; 0 for none (default 1000; behind a proxy raise or 0)
          --trusted-proxies ADDRESSES
                                  the reverse proxies in front of this node, as addresses or
                                  ranges separated by commas (10.0.0.5,10.1.0.0/16,fd00::/8):
                                  a request from one counts as coming from the client its
                                  X-Forwarded-For names (default: none; the TCP peer counts)
          --connection-timeout S  close connections idle S seconds (default 30)
          --request-head-timeout-ms N
                                  request line and headers must arrive within N ms of the
                                  connection being ready for a request; else 408 (default 10000)
          --body-min-rate N       bodies slower than N bytes/s on average (after a grace of the
                                  head timeout) are cut off; 0 for none (default 1024)
          --max-body-bytes N      largest request body, after gzip (default 1048576)
          --test-clock            let POST /emulator/v1/clock {"advanceSeconds": N} move time
                                  forward (end-to-end tests of expiry; never in production)
          --installation-sweep-interval-ms N
                                  how often inactive installations are swept (default 60000)
          --webhook-retry-base-ms N
                                  first retry delay of a failed deletion webhook, doubling
                                  up to 6 hours (default 30000)
          --lease-seconds N       the lease one node holds to run the inactivity sweeper and
                                  clean-up for all nodes, renewed every third of it; a node
                                  that dies hands that work over within N s (default 30)
        \(MailServeOptions.usage)
        """

    /// Reads the flags that follow `hearth serve`.
    public static func parse(_ arguments: [String]) throws(UsageError) -> ServeOptions {
        let parsed = try ParsedArguments(
            arguments,
            command: "serve",
            valued: valuedFlags,
            switches: ["dev", "test-clock"]
        )
        if let extra = parsed.positional.first { throw UsageError("hearth serve: unexpected argument \"\(extra)\"") }
        var options = ServeOptions()
        options.host = parsed.value("host") ?? options.host
        options.port = try parsed.integer("port", default: options.port, in: 0...65_535, command: "serve")
        options.dataDirectory = parsed.value("data") ?? options.dataDirectory
        options.databaseURL = parsed.value("database")
        options.masterKeyFile = parsed.value("master-key-file")
        options.configPath = parsed.value("config")
        options.development = parsed.flag("dev")
        options.publicURL = parsed.value("public-url")
        options.threads = try parsed.integer("threads", default: 0, in: 0...256, command: "serve")
        options.connectionLimit = try parsed.integer(
            "connection-limit",
            default: options.connectionLimit,
            in: 1...1_000_000,
            command: "serve"
        )
        options.perIPConnectionLimit = try parsed.integer(
            "per-ip-connection-limit",
            default: options.perIPConnectionLimit,
            in: 0...1_000_000,
            command: "serve"
        )
        if let list = parsed.value("trusted-proxies") {
            do {
                options.trustedProxies = try TrustedProxies(parsing: list)
            } catch {
                throw UsageError(
                    "hearth serve: --trusted-proxies takes IP addresses and ranges (10.0.0.5, 10.1.0.0/16, fd00::/8) "
                        + "separated by commas; \"\(error.entry)\" is not one"
                )
            }
        }
        options.requestHeadTimeoutMilliseconds = try parsed.integer(
            "request-head-timeout-ms",
            default: options.requestHeadTimeoutMilliseconds,
            in: 100...3_600_000,
            command: "serve"
        )
        options.bodyMinimumBytesPerSecond = try parsed.integer(
            "body-min-rate",
            default: options.bodyMinimumBytesPerSecond,
            in: 0...1_000_000_000,
            command: "serve"
        )
        options.connectionTimeoutSeconds = try parsed.integer(
            "connection-timeout",
            default: options.connectionTimeoutSeconds,
            in: 1...3_600,
            command: "serve"
        )
        options.maxBodyBytes = try parsed.integer(
            "max-body-bytes",
            default: options.maxBodyBytes,
            in: 1_024...(1 << 30),
            command: "serve"
        )
        options.mail = try MailServeOptions(parsed)
        options.testClock = parsed.flag("test-clock")
        options.installationSettings.sweepIntervalMilliseconds = try parsed.integer(
            "installation-sweep-interval-ms",
            default: options.installationSettings.sweepIntervalMilliseconds,
            in: 10...86_400_000,
            command: "serve"
        )
        options.installationSettings.webhookRetryBaseMilliseconds = Int64(
            try parsed.integer(
                "webhook-retry-base-ms",
                default: Int(options.installationSettings.webhookRetryBaseMilliseconds),
                in: 10...86_400_000,
                command: "serve"
            )
        )
        options.leaseSeconds = try parsed.integer(
            "lease-seconds",
            default: options.leaseSeconds,
            in: 1...3_600,
            command: "serve"
        )
        if options.host.isEmpty { throw UsageError("hearth serve: --host must not be empty") }
        if options.testClock && options.listensBeyondThisMachine {
            throw UsageError(
                "hearth serve: --test-clock lets any caller move the server's time, so it needs a loopback --host "
                    + "(127.0.0.1, ::1 or localhost)"
            )
        }
        if let url = options.publicURL, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw UsageError("hearth serve: --public-url must start with http:// or https://")
        }
        if let url = options.databaseURL,
            !(url.hasPrefix("sqlite:") || url.hasPrefix("postgres://") || url.hasPrefix("postgresql://"))
        {
            throw UsageError("hearth serve: --database must be sqlite:PATH or postgres://...")
        }
        return options
    }
}
