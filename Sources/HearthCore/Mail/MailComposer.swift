/// Turns a request for an email into the finished message: the template of its kind in the
/// negotiated language, every value filled in (escaped in HTML). Implemented by `HearthMail`;
/// domain code composes inside its write and queues the result with
/// `WriteTransaction.enqueueMail`, so the message exists exactly when its cause does.
public protocol MailComposer: Sendable {
    func compose(_ request: MailRequest) throws(MailError) -> ComposedMail
}

/// Everything an email of one kind needs.
public struct MailRequest: Sendable {
    public var kind: MailKind
    /// The project: its app name, default language, sender and template overrides.
    public var project: Project
    /// The recipient's address (the new address for `VERIFY_AND_CHANGE_EMAIL`, the old one
    /// for `RECOVER_EMAIL`).
    public var recipient: String
    public var languages: LanguagePreferences
    /// `%DISPLAY_NAME%` (and the name on the `To` line); the address when absent.
    public var displayName: String?
    /// `%EMAIL%`: the account's address; the recipient when absent.
    public var email: String?
    /// `%NEW_EMAIL%`.
    public var newEmail: String?
    /// `%LINK%`: the action link, required for kinds that have one.
    public var link: String?
    /// `%EXPIRY%`: how long the link works; also the time after which the message is no
    /// longer worth delivering.
    public var linkLifetimeSeconds: Int64?

    public init(
        kind: MailKind,
        project: Project,
        recipient: String,
        languages: LanguagePreferences = LanguagePreferences(),
        displayName: String? = nil,
        email: String? = nil,
        newEmail: String? = nil,
        link: String? = nil,
        linkLifetimeSeconds: Int64? = nil
    ) {
        self.kind = kind
        self.project = project
        self.recipient = recipient
        self.languages = languages
        self.displayName = displayName
        self.email = email
        self.newEmail = newEmail
        self.link = link
        self.linkLifetimeSeconds = linkLifetimeSeconds
    }
}

/// A finished email, ready to be queued.
public struct ComposedMail: Sendable, Equatable {
    /// The HTML document.
    public var html: String { body.html(subject: subject) }
    public var text: String { body.text }

    public var kind: MailKind
    public var projectID: String
    /// The negotiated language tag.
    public var language: String
    public var from: MailAddress
    public var to: MailAddress
    public var replyTo: MailAddress?
    public var subject: String
    /// The bodies, as their template and its values.
    public var body: MailBody
    /// After this long, the message is no longer worth delivering (its link has expired).
    public var deliverWithinSeconds: Int64?

    public init(
        kind: MailKind,
        projectID: String,
        language: String,
        from: MailAddress,
        to: MailAddress,
        replyTo: MailAddress? = nil,
        subject: String,
        body: MailBody,
        deliverWithinSeconds: Int64? = nil
    ) {
        self.kind = kind
        self.projectID = projectID
        self.language = language
        self.from = from
        self.to = to
        self.replyTo = replyTo
        self.subject = subject
        self.body = body
        self.deliverWithinSeconds = deliverWithinSeconds
    }
}

extension Project {
    /// The name emails and pages show: `settings.appName`, else the display name.
    public var appName: String { settings.appName ?? displayName }

    /// The `From` mailbox of a project's emails: `from` (`MailSettings.from`), else a
    /// no-reply address of the project under the app's name.
    static func sender(id: String, appName: String, from: String?) throws(MailError) -> MailAddress {
        if let from { return try MailAddress(parsing: from) }
        return try MailAddress(address: "noreply@\(id).hearth.local", displayName: appName)
    }
}
