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
    public var placeholders: [TemplatePlaceholder] {
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

extension TemplateText {
    /// Parses `text`, allowing the placeholders of `kind`.
    public init(_ text: String, kind: MailKind) throws(TemplateError) {
        try self.init(text, allowing: kind.placeholders, in: kind.rawValue)
    }
}
