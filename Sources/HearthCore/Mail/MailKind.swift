/// What an email is for. The raw values are Identity Toolkit's `requestType` names, which
/// also name templates in project settings (`settings.mail.templates.PASSWORD_RESET`).
public enum MailKind: String, Sendable, CaseIterable, Codable {
    case passwordReset = "PASSWORD_RESET"
    case verifyEmail = "VERIFY_EMAIL"
    case emailSignIn = "EMAIL_SIGNIN"
    case verifyAndChangeEmail = "VERIFY_AND_CHANGE_EMAIL"
    case recoverEmail = "RECOVER_EMAIL"
    /// `hearth mail send-test`: checks the delivery settings; carries no action.
    case test = "TEST"

    /// The placeholders a template of this kind may use.
    public var placeholders: [MailPlaceholder] {
        switch self {
        case .passwordReset, .verifyEmail, .emailSignIn:
            [.appName, .displayName, .email, .link, .expiry]
        case .verifyAndChangeEmail, .recoverEmail:
            [.appName, .displayName, .email, .newEmail, .link, .expiry]
        case .test:
            [.appName, .displayName, .email]
        }
    }

    /// Whether a message of this kind carries an action link.
    public var hasLink: Bool { placeholders.contains(.link) }

    /// The `mode` of the action link (`<actionURL>?mode=...`), for kinds that have one.
    public var linkMode: String? { ActionCodeOperation(rawValue: rawValue)?.mode }
}

/// A value a template refers to as `%NAME%` (Firebase's console uses the same names).
public enum MailPlaceholder: String, Sendable, CaseIterable {
    case appName = "APP_NAME"
    case displayName = "DISPLAY_NAME"
    case email = "EMAIL"
    case newEmail = "NEW_EMAIL"
    case link = "LINK"
    case expiry = "EXPIRY"

    /// How it is written in a template: `%APP_NAME%`.
    public var token: String { "%\(rawValue)%" }

    /// The placeholder's place in `allCases`, for tables indexed by placeholder.
    public var ordinal: Int {
        switch self {
        case .appName: 0
        case .displayName: 1
        case .email: 2
        case .newEmail: 3
        case .link: 4
        case .expiry: 5
        }
    }
}
