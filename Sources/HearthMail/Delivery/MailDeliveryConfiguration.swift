public import HearthCore
import HearthNetwork

/// How a node delivers the outbox.
public struct MailDeliveryConfiguration: Sendable {
    /// The SMTP server of projects without their own (`hearth serve --smtp`); without one,
    /// such projects' mail stays in the outbox, unsent (`LogTransport`).
    public var defaultSMTP: SMTPSettings?
    public var retry = RetrySchedule(baseMilliseconds: 10_000, maximumMilliseconds: 30 * 60_000)
    /// A message not delivered this long after it was queued fails (its link may also end
    /// it sooner).
    public var maximumAgeMilliseconds: Int64 = 2 * 86_400_000
    /// How long a worker holds a message it is sending; a message whose worker died is sent
    /// again after this. Longer than any transfer may take.
    public var claimMilliseconds: Int64 = 90_000
    /// How often an idle worker looks for due messages (other nodes and the CLI queue too).
    public var pollMilliseconds = 1_000
    /// Worker threads of this node.
    public var workerCount = 2
    /// Messages a worker takes at once.
    public var batchSize = 8
    /// Bodies (which hold action links) of finished messages are purged after this long...
    public var bodyRetentionMilliseconds: Int64 = 3_600_000
    /// ...except in this project's (the development seed's: its links stay inspectable).
    public var keepBodiesOfProject: String?
    /// Finished messages are deleted after this long.
    public var recordRetentionMilliseconds: Int64 = 30 * 86_400_000
    /// Where `passwordEnv` of SMTP settings is looked up (`hearth serve`'s environment).
    public var environment: [String: String] = [:]

    public init() {}

    /// Reads `hearth serve --smtp URL`: `smtp://[user[:password]@]host[:port]` or `smtps://...`,
    /// with optional `?starttls=off|opportunistic|required&verify=false&timeout=SECONDS`.
    /// Without a password in the URL, `HEARTH_SMTP_PASSWORD` from the environment is used
    /// (a password on a command line is visible to every user of the machine).
    public static func smtpSettings(commandLineURL url: String) throws(MailError) -> SMTPSettings {
        let queryStart = url.firstIndex(of: "?") ?? url.endIndex
        var settings = SMTPSettings(url: String(url[..<queryStart]), passwordEnv: "HEARTH_SMTP_PASSWORD")
        for item in url[queryStart...].dropFirst().split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1).map(String.init)
            let value = pair.count == 2 ? pair[1] : ""
            switch pair[0] {
            case "starttls":
                guard let mode = SMTPSettings.StartTLS(rawValue: value) else {
                    throw MailError(.invalidSettings, "starttls must be off, opportunistic or required")
                }
                settings.startTls = mode
            case "verify":
                guard value == "true" || value == "false" else {
                    throw MailError(.invalidSettings, "verify must be true or false")
                }
                settings.verifyCertificate = value == "true"
            case "timeout":
                guard let seconds = Int(value) else { throw MailError(.invalidSettings, "timeout must be seconds") }
                settings.timeoutSeconds = seconds
            default:
                throw MailError(.invalidSettings, "unknown SMTP URL option \"\(pair[0])\"")
            }
        }
        if let problem = settings.problems().first { throw MailError(.invalidSettings, "--smtp: \(problem)") }
        return settings
    }

    /// The libcurl configuration for `settings`: credentials taken out of the URL (and
    /// `passwordEnv` resolved), the timeout kept within half the claim on the message (a
    /// message is sent only while half its claim is left: `Mailer.sendWhileClaimed`).
    func smtpConfiguration(_ settings: SMTPSettings) -> SMTPConfiguration {
        let parts = SMTPURLParts(settings.url)
        var configuration = SMTPConfiguration(
            url: parts.urlWithoutCredentials,
            username: settings.username ?? parts.username,
            password: settings.password ?? parts.password ?? settings.passwordEnv.flatMap { environment[$0] },
            startTLS: settings.startTls.map {
                switch $0 {
                case .off: .off
                case .opportunistic: .opportunistic
                case .required: .required
                }
            }
        )
        let timeout = Int64(settings.timeoutSeconds ?? 30) * 1_000
        configuration.timeoutMilliseconds = Int(max(1_000, min(timeout, claimMilliseconds / 2)))
        configuration.verifyCertificate = settings.verifyCertificate ?? true
        return configuration
    }
}

/// An SMTP URL split around its user-info, so credentials go to libcurl as options.
struct SMTPURLParts {
    var urlWithoutCredentials: String
    var username: String?
    var password: String?

    init(_ url: String) {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else {
            urlWithoutCredentials = url
            return
        }
        let schemeEnd = url.index(colon, offsetBy: 3)
        let rest = url[schemeEnd...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else {
            urlWithoutCredentials = url
            return
        }
        let userInfo = rest[..<at]
        urlWithoutCredentials = String(url[..<schemeEnd]) + rest[rest.index(after: at)...]
        if let colon = userInfo.firstIndex(of: ":") {
            username = Self.percentDecoded(userInfo[..<colon])
            password = Self.percentDecoded(userInfo[userInfo.index(after: colon)...])
        } else {
            username = Self.percentDecoded(userInfo)
        }
    }

    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
