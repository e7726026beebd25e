import HearthBase
import HearthCore
import HearthHTTP
import HearthStore

#if canImport(Glibc)
    import Glibc
#endif

/// `hearth serve`: reads the master key, opens the store (a start that fails there never takes
/// the port; a missing master key is made only when the store holds no signing keys), starts the
/// HTTP server (answering 503 while starting), applies the projects, makes signing keys, then
/// serves until SIGINT or SIGTERM and shuts down gracefully: stop accepting, finish in-flight
/// requests, close the store.
enum ServeCommand {
    static func run(_ options: ServeOptions, environment: [String: String]) throws(UsageError) -> Int32 {
        let signals = ShutdownSignals.block()
        let log = Log()
        let configuration = try options.configPath.map { path throws(UsageError) in
            try ConfigurationFile.load(path: path)
        }
        var publicOptions = options
        if options.publicURL == nil, let url = configuration?.publicURL { publicOptions.publicURL = url }
        log.info(announcement(publicOptions, configuration: configuration))

        let dataDirectory = DataDirectory(path: options.dataDirectory)
        try dataDirectory.prepare()
        let givenMasterKey = try dataDirectory.existingMasterKey(
            file: options.masterKeyFile,
            environment: environment
        ) { warning in log.warning(warning) }
        let developmentProjectID = options.runsDevelopmentSeed ? DevelopmentSeed.projectID : nil
        let mailDelivery = options.mail.deliveryConfiguration(
            environment: environment,
            developmentProjectID: developmentProjectID
        )

        // The store first: a start that fails on its database fails before taking the port.
        let location = try StoreLocation(options.effectiveDatabaseURL)
        let store: any Store
        do {
            store = try location.open(log: log)
        } catch let error as UsageError {
            throw error
        } catch {
            throw UsageError(
                "hearth serve: cannot open the database \(RedactedURL(options.effectiveDatabaseURL)): \(error)"
            )
        }
        // Made only now, once the store shows it holds no keys a new master key could not open.
        let masterKey: MasterKey
        if let givenMasterKey {
            masterKey = givenMasterKey
        } else {
            do {
                masterKey = try dataDirectory.makeMasterKey(unlessSealedKeysIn: store)
            } catch {
                store.close()
                throw error
            }
        }

        let responder = StartupResponder()
        var httpConfiguration = HTTPServer.Configuration()
        httpConfiguration.host = options.host
        httpConfiguration.port = options.port
        httpConfiguration.threadCount =
            options.threads > 0 ? options.threads : HTTPServer.Configuration.processorCount
        httpConfiguration.connectionLimit = options.connectionLimit
        httpConfiguration.perIPConnectionLimit = options.perIPConnectionLimit
        httpConfiguration.trustedProxies = options.trustedProxies
        httpConfiguration.connectionTimeoutSeconds = options.connectionTimeoutSeconds
        httpConfiguration.requestHeadTimeoutMilliseconds = options.requestHeadTimeoutMilliseconds
        httpConfiguration.bodyMinimumBytesPerSecond = options.bodyMinimumBytesPerSecond
        httpConfiguration.maxBodyBytes = options.maxBodyBytes
        httpConfiguration.accessLog = AccessLog(writer: log.writer)
        // Once ready, health checks skip routing entirely (see `enableStaticResponses`).
        httpConfiguration.staticResponses = ["/healthz": HearthApplication.healthyResponse]
        httpConfiguration.log = log
        let server = HTTPServer(configuration: httpConfiguration, responder: responder)
        do {
            try server.start()
        } catch {
            store.close()
            throw UsageError("hearth serve: \(error)")
        }
        let port = server.boundPort ?? options.port
        if options.port == 0 { publicOptions.port = port }

        // The rest of start-up runs while the server answers 503 (see `StartupResponder`).
        let application: HearthApplication
        let clock = OffsetClock()
        do {
            application = try HearthApplication(
                store: store,
                clock: clock,
                log: log,
                masterKey: masterKey,
                publicURL: publicOptions.effectivePublicURL,
                developmentProjectID: developmentProjectID,
                mailDelivery: mailDelivery,
                installationSettings: options.installationSettings,
                leaseMilliseconds: Int64(options.leaseSeconds) * 1_000
            )
            for project in configuration?.projects ?? [] { try application.projects.save(project) }
            if options.runsDevelopmentSeed { try application.projects.save(DevelopmentSeed.project) }
            try application.prepareSigningKeys()
        } catch let error as UsageError {
            server.stop()
            store.close()
            throw error
        } catch {
            server.stop()
            store.close()
            throw UsageError("hearth serve: cannot start: \(error)")
        }
        application.startBackgroundWork()
        let handlerPool = location.handlerThreads(processors: HTTPServer.Configuration.processorCount).map {
            HandlerPool(threads: $0, failsFast: { store.health == .notAnswering })
        }
        var router = application.makeRouter(handlerPool: handlerPool)
        if options.testClock { application.addTestClockRoutes(to: &router, clock: clock) }
        responder.becomeReady(with: router)
        application.followStoreHealth(with: server)
        log.info(
            "hearth is ready",
            [
                "url": .string("http://\(displayHost(options.host)):\(port)"),
                "publicUrl": .string(application.publicURL),
            ]
        )
        for line in StartupGuide.lines(publicOptions, port: port) { log.info(line) }
        for line in StartupGuide.warnings(options) { log.warning(line) }

        let signal = signals.wait()
        // Logged once new connections are refused, so the line means what it says.
        server.beginShutdown()
        log.info("shutting down", ["signal": .string(signal == SIGINT ? "SIGINT" : "SIGTERM")])
        if !server.waitForInFlight(timeout: .seconds(15)) {
            log.warning("in-flight requests still running after 15 s; stopping anyway")
        }
        server.stop()
        handlerPool?.stop()
        application.stopBackgroundWork()
        store.close()
        log.info("stopped")
        log.writer.flush()
        return 0
    }

    private static func announcement(_ options: ServeOptions, configuration: ConfigurationFile?) -> String {
        let url = "http://\(displayHost(options.host)):\(options.port)"
        var parts: [String] = []
        if options.runsDevelopmentSeed {
            parts.append(
                "development seed: project \(DevelopmentSeed.projectID), API key \(DevelopmentSeed.apiKey), "
                    + "admin credential \"Bearer \(DevelopmentSeed.adminCredential)\""
            )
        }
        if let configuration {
            parts.append("configured projects: " + configuration.projects.map(\.id).joined(separator: ", "))
        }
        return "hearth \(HearthVersion.current) starting on \(url) with the " + parts.joined(separator: "; and ")
            + " (database \(RedactedURL(options.effectiveDatabaseURL)))"
    }

    private static func displayHost(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
}

/// SIGINT and SIGTERM, blocked in every thread and received by `sigwait` on the main thread,
/// so no signal handler runs Swift code at an arbitrary moment.
struct ShutdownSignals {
    private var set = sigset_t()

    /// Blocks the signals; call before any thread starts, so every thread inherits the mask.
    static func block() -> ShutdownSignals {
        var signals = ShutdownSignals()
        sigemptyset(&signals.set)
        sigaddset(&signals.set, SIGINT)
        sigaddset(&signals.set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals.set, nil)
        return signals
    }

    /// Waits for one of the signals and answers which.
    func wait() -> Int32 {
        var set = self.set
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }
}

/// This build's version.
public enum HearthVersion {
    public static let current = "0.1.0"
}
