/// Per-project tunables. Every field has the product's default, and a configuration file
/// may set any subset of them.
public struct ProjectSettings: Sendable, Equatable, Codable {
    /// Lifetime of installation auth tokens (one week).
    public var installationTokenLifetimeSeconds: Int64 = 604_800
    /// Installations unseen for longer than this are deleted (270 days).
    public var installationInactivitySeconds: Int64 = 270 * 86_400
    /// Lifetime of ID tokens (one hour).
    public var idTokenLifetimeSeconds: Int64 = 3_600
    public var passwordResetCodeLifetimeSeconds: Int64 = 3_600
    public var verifyEmailCodeLifetimeSeconds: Int64 = 3 * 86_400
    public var emailSignInCodeLifetimeSeconds: Int64 = 6 * 3_600
    public var verifyAndChangeEmailCodeLifetimeSeconds: Int64 = 3 * 86_400
    public var recoverEmailCodeLifetimeSeconds: Int64 = 3 * 86_400
    /// Unknown addresses get the same answer as known ones, and nothing is sent.
    public var emailEnumerationProtection = true
    /// Action emails one address may receive per hour (client requests; admins are not limited).
    public var emailsPerRecipientPerHour: Int64 = 10
    /// Action emails one client IP address may ask for per hour.
    public var emailsPerClientAddressPerHour: Int64 = 100
    /// The language of emails and pages when nothing else decides it (BCP 47).
    public var defaultLanguage = "en"
    /// The name shown in emails and pages; the project's display name if `nil`.
    public var appName: String?
    /// Sender, SMTP server and template overrides of the project's emails.
    public var mail = MailSettings()
    /// The logo the hosted pages show above their heading: an `https` URL (the pages'
    /// Content-Security-Policy allows images from its origin and no other).
    public var logoURL: String?
    /// The colour of the hosted pages' buttons and links, `#rrggbb`.
    public var accentColor: String?

    public init() {}

    enum CodingKeys: String, CodingKey {
        case installationTokenLifetimeSeconds, installationInactivitySeconds, idTokenLifetimeSeconds
        case passwordResetCodeLifetimeSeconds, verifyEmailCodeLifetimeSeconds, emailSignInCodeLifetimeSeconds
        case verifyAndChangeEmailCodeLifetimeSeconds, recoverEmailCodeLifetimeSeconds
        case emailEnumerationProtection, emailsPerRecipientPerHour, emailsPerClientAddressPerHour
        case defaultLanguage, appName, mail
        case logoURL = "logoUrl"
        case accentColor
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ProjectSettings()
        func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) throws -> T {
            try container.decodeIfPresent(T.self, forKey: key) ?? fallback
        }
        installationTokenLifetimeSeconds = try value(
            .installationTokenLifetimeSeconds,
            defaults.installationTokenLifetimeSeconds
        )
        installationInactivitySeconds = try value(
            .installationInactivitySeconds,
            defaults.installationInactivitySeconds
        )
        idTokenLifetimeSeconds = try value(.idTokenLifetimeSeconds, defaults.idTokenLifetimeSeconds)
        passwordResetCodeLifetimeSeconds = try value(
            .passwordResetCodeLifetimeSeconds,
            defaults.passwordResetCodeLifetimeSeconds
        )
        verifyEmailCodeLifetimeSeconds = try value(
            .verifyEmailCodeLifetimeSeconds,
            defaults.verifyEmailCodeLifetimeSeconds
        )
        emailSignInCodeLifetimeSeconds = try value(
            .emailSignInCodeLifetimeSeconds,
            defaults.emailSignInCodeLifetimeSeconds
        )
        verifyAndChangeEmailCodeLifetimeSeconds = try value(
            .verifyAndChangeEmailCodeLifetimeSeconds,
            defaults.verifyAndChangeEmailCodeLifetimeSeconds
        )
        recoverEmailCodeLifetimeSeconds = try value(
            .recoverEmailCodeLifetimeSeconds,
            defaults.recoverEmailCodeLifetimeSeconds
        )
        emailEnumerationProtection = try value(.emailEnumerationProtection, defaults.emailEnumerationProtection)
        emailsPerRecipientPerHour = try value(.emailsPerRecipientPerHour, defaults.emailsPerRecipientPerHour)
        emailsPerClientAddressPerHour = try value(
            .emailsPerClientAddressPerHour,
            defaults.emailsPerClientAddressPerHour
        )
        defaultLanguage = try value(.defaultLanguage, defaults.defaultLanguage)
        appName = try container.decodeIfPresent(String.self, forKey: .appName)
        mail = try value(.mail, defaults.mail)
        logoURL = try container.decodeIfPresent(String.self, forKey: .logoURL)
        accentColor = try container.decodeIfPresent(String.self, forKey: .accentColor)
    }
}
