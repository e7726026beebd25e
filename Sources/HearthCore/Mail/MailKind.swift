public import HearthWire

/// What an email is for: one of the actions a code performs, or a test of the delivery
/// settings. The raw values are Identity Toolkit's `requestType` names
/// (`ActionCodeOperation.requestType`) and `TEST`; they name templates in project settings
/// (`settings.mail.templates.PASSWORD_RESET`) and are what the outbox stores as a message's
/// kind.
public enum MailKind: Sendable, Hashable, Codable, CaseIterable, RawRepresentable {
    /// The email that carries a code of the action: its link performs it.
    case action(ActionCodeOperation)
    /// `hearth mail send-test`: checks the delivery settings; carries no action.
    case test

    /// Every kind: each action that a code performs, then `test`.
    public static let allCases: [MailKind] = ActionCodeOperation.actions.map(MailKind.action) + [.test]

    /// The kind named `rawValue` exactly; `nil` for any other name (`OOB_REQ_TYPE_UNSPECIFIED`
    /// included: no email performs `.unknown`).
    public init?(rawValue: String) {
        if rawValue == Self.testName {
            self = .test
        } else if let operation = ActionCodeOperation(exactRequestType: rawValue) {
            self = .action(operation)
        } else {
            return nil
        }
    }

    public var rawValue: String {
        switch self {
        case .action(let operation): operation.requestType
        case .test: Self.testName
        }
    }

    private static let testName = "TEST"

    /// The placeholders a template of this kind may use.
    public var placeholders: [TemplatePlaceholder] {
        switch self {
        case .action(.verifyAndChangeEmail), .action(.recoverEmail):
            [.appName, .displayName, .email, .newEmail, .link, .expiry]
        case .action:
            [.appName, .displayName, .email, .link, .expiry]
        case .test:
            [.appName, .displayName, .email]
        }
    }

    /// Whether a message of this kind carries an action link.
    public var hasLink: Bool { placeholders.contains(.link) }

    /// The `mode` of the action link (`<actionURL>?mode=...`), for kinds that have one.
    public var linkMode: String? {
        guard case .action(let operation) = self else { return nil }
        return operation.mode
    }
}

extension TemplateText {
    /// Parses `text`, allowing the placeholders of `kind`.
    public init(_ text: String, kind: MailKind) throws(TemplateError) {
        try self.init(text, allowing: kind.placeholders, in: kind.rawValue)
    }
}
