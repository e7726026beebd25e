import HearthCore
import HearthMail

/// The mail flags of `hearth serve`: the default SMTP server and the delivery timings
/// (shortened by tests so retries and lapsed claims take moments).
public struct MailServeOptions: Sendable, Equatable {
    /// `--smtp URL`: the SMTP server of projects without their own; without one, mail stays in the outbox.
    public var smtpURL: String?
    /// `smtpURL` as read: checked once, when the flags are parsed.
    var defaultSMTP: SMTPSettings?
    public var retryBaseMilliseconds: Int64 = 10_000
    public var retryCapMilliseconds: Int64 = 30 * 60_000
    public var claimMilliseconds: Int64 = 90_000
    public var pollMilliseconds = 1_000
    public var maximumAgeSeconds: Int64 = 2 * 86_400
    public var bodyRetentionSeconds: Int64 = 3_600

    public init() {}

    static let valuedFlags: Set<String> = [
        "smtp", "mail-retry-base", "mail-retry-cap", "mail-claim", "mail-poll", "mail-max-age", "mail-body-retention",
    ]

    static let usage = """
          --smtp URL              deliver mail through smtp://[user[:pass]@]host[:port] or smtps://...
                                  (?starttls=off|opportunistic|required&verify=false&timeout=S;
                                  password also from HEARTH_SMTP_PASSWORD); default: none, mail
                                  stays in the outbox (hearth mail list)
          --mail-retry-base MS    first retry of a failed delivery after about MS (default 10000)
          --mail-retry-cap MS     longest wait between retries (default 1800000)
          --mail-claim MS         a message being sent is taken over by another worker after MS
                                  if its sender died (default 90000)
          --mail-poll MS          how often delivery workers look for queued mail (default 1000)
          --mail-max-age S        undelivered mail fails after S seconds (default 172800)
          --mail-body-retention S bodies of sent mail (they hold links) are purged after S seconds,
                                  except in the development seed (default 3600)
        """

    init(_ parsed: ParsedArguments) throws(UsageError) {
        smtpURL = parsed.value("smtp")
        retryBaseMilliseconds = Int64(
            try parsed.integer("mail-retry-base", default: 10_000, in: 10...86_400_000, command: "serve")
        )
        retryCapMilliseconds = Int64(
            try parsed.integer("mail-retry-cap", default: 30 * 60_000, in: 10...86_400_000, command: "serve")
        )
        claimMilliseconds = Int64(
            try parsed.integer("mail-claim", default: 90_000, in: 2_000...3_600_000, command: "serve")
        )
        pollMilliseconds = try parsed.integer("mail-poll", default: 1_000, in: 10...60_000, command: "serve")
        maximumAgeSeconds = Int64(
            try parsed.integer("mail-max-age", default: 2 * 86_400, in: 1...30 * 86_400, command: "serve")
        )
        bodyRetentionSeconds = Int64(
            try parsed.integer("mail-body-retention", default: 3_600, in: 0...365 * 86_400, command: "serve")
        )
        if retryCapMilliseconds < retryBaseMilliseconds {
            throw UsageError("hearth serve: --mail-retry-cap must not be shorter than --mail-retry-base")
        }
        if let smtpURL {
            do {
                defaultSMTP = try MailDeliveryConfiguration.smtpSettings(commandLineURL: smtpURL)
            } catch {
                throw UsageError("hearth serve: --smtp: \(error.message)")
            }
        }
    }

    /// The delivery configuration these flags describe.
    func deliveryConfiguration(
        environment: [String: String],
        developmentProjectID: String?
    ) -> MailDeliveryConfiguration {
        var configuration = MailDeliveryConfiguration()
        configuration.defaultSMTP = defaultSMTP
        configuration.retry = RetrySchedule(
            baseMilliseconds: retryBaseMilliseconds,
            maximumMilliseconds: retryCapMilliseconds
        )
        configuration.claimMilliseconds = claimMilliseconds
        configuration.pollMilliseconds = pollMilliseconds
        configuration.maximumAgeMilliseconds = maximumAgeSeconds * 1_000
        configuration.bodyRetentionMilliseconds = bodyRetentionSeconds * 1_000
        configuration.keepBodiesOfProject = developmentProjectID
        configuration.environment = environment
        return configuration
    }
}
