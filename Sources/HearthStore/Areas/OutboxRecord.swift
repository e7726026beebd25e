/// One message of the mail outbox as stored: what to send, and where its delivery stands.
/// Times are epoch milliseconds.
public struct OutboxRecord: Sendable, Equatable {
    /// Where a message is in its delivery. `sending` is held by one worker until
    /// `claimedUntil`; a message whose claim lapsed (its worker died) is taken again.
    public enum State: String, Sendable, CaseIterable {
        case queued, sending, sent, failed
    }

    /// The action an email carries (filled by email actions; `nil` for other mail).
    public struct Action: Sendable, Equatable {
        public var requestType: String
        public var email: String
        public var newEmail: String?
        /// The code and link in the clear: in memory only (opened from `sealed`), never stored.
        public var oobCode: String?
        public var oobLink: String?
        /// The code and link as stored, sealed (`HearthCore.MailSeal`).
        public var sealed: [UInt8]?

        public init(
            requestType: String,
            email: String,
            newEmail: String? = nil,
            oobCode: String?,
            oobLink: String?,
            sealed: [UInt8]? = nil
        ) {
            self.requestType = requestType
            self.email = email
            self.newEmail = newEmail
            self.oobCode = oobCode
            self.oobLink = oobLink
            self.sealed = sealed
        }
    }

    /// A template of message bodies, as the store keeps it: its source under its key.
    public struct Template: Sendable, Equatable {
        /// The SHA-256 of `source`.
        public var key: [UInt8]
        public var source: String

        public init(key: [UInt8], source: String) {
            self.key = key
            self.source = source
        }
    }

    /// What names a message: the outbox is keyed by project and ID.
    public struct Key: Sendable, Hashable {
        public var projectID: String
        public var id: String

        public init(projectID: String, id: String) {
            self.projectID = projectID
            self.id = id
        }
    }

    public var id: String
    public var projectID: String
    public var key: Key { Key(projectID: projectID, id: id) }
    public var kind: String
    public var language: String
    /// The `From` mailbox (`"Name" <address>` or a bare address).
    public var sender: String
    /// The recipient's address.
    public var recipient: String
    public var replyTo: String?
    public var subject: String
    /// The bodies of a message queued rendered, `nil` once purged after delivery (they hold
    /// action links).
    public var htmlBody: String?
    public var textBody: String?
    /// The bodies of a message queued as the template they are rendered from
    /// (`HearthCore.MailBody`), stored once for all its messages ...
    public var template: Template?
    /// ... and the values that fill it (a JSON object): in the clear in memory only (opened
    /// from `sealedValues`; stored so only by versions that did not seal them) ...
    public var templateValues: String?
    /// ... and as stored, sealed (`HearthCore.MailSeal`), `nil` once purged after delivery.
    public var sealedValues: [UInt8]?
    /// The RFC 5322 `Message-ID`, with its angle brackets; the same on every attempt.
    public var messageID: String
    public var action: Action?
    public var state: State
    public var attempts: Int
    public var lastError: String?
    /// The transport that delivered it (`log`, `smtp`).
    public var transport: String?
    public var createdAt: Int64
    /// Not delivered by then, the message fails.
    public var expiresAt: Int64
    public var nextAttemptAt: Int64
    public var claimedUntil: Int64?
    public var claimedBy: String?
    public var finishedAt: Int64?

    /// A new queued message, due at once.
    public init(
        id: String,
        projectID: String,
        kind: String,
        language: String,
        sender: String,
        recipient: String,
        replyTo: String? = nil,
        subject: String,
        htmlBody: String? = nil,
        textBody: String? = nil,
        template: Template? = nil,
        templateValues: String? = nil,
        sealedValues: [UInt8]? = nil,
        messageID: String,
        action: Action? = nil,
        createdAt: Int64,
        expiresAt: Int64
    ) {
        self.id = id
        self.projectID = projectID
        self.kind = kind
        self.language = language
        self.sender = sender
        self.recipient = recipient
        self.replyTo = replyTo
        self.subject = subject
        self.htmlBody = htmlBody
        self.textBody = textBody
        self.template = template
        self.templateValues = templateValues
        self.sealedValues = sealedValues
        self.messageID = messageID
        self.action = action
        self.state = .queued
        self.attempts = 0
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.nextAttemptAt = createdAt
    }
}
