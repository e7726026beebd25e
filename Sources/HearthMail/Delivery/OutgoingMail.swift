public import HearthCore
import HearthStore

/// A queued message on its way out: what a transport needs to deliver it.
public struct OutgoingMail: Sendable, Equatable {
    public var id: String
    public var projectID: String
    public var kind: String
    public var language: String
    public var from: MailAddress
    public var to: MailAddress
    public var replyTo: MailAddress?
    public var subject: String
    /// The plain-text body, rendered when asked for (the log transport needs no body).
    public var text: String { bodies.text }
    /// The HTML body, rendered when asked for.
    public var html: String { bodies.html(subject: subject) }
    /// With angle brackets; the same on every attempt, so receivers can drop duplicates.
    public var messageID: String
    public var createdAt: Int64
    /// The action link, for the log transport's summary: the one the message was queued with,
    /// else the first web link of its text.
    public var link: String? {
        if let action { return action }
        if case .template(let body) = bodies, let link = body.value(of: .link) { return link }
        return Self.firstWebLink(in: text)
    }

    private let bodies: StoredMailBodies
    private let action: String?

    /// The message `record` stores. `composed`, the mail the record was made from (a message
    /// handed over by the write that queued it), gives the addresses and bodies as they were
    /// before being stored, so they need not be read back from their stored form.
    init(_ record: OutboxRecord, composed: ComposedMail? = nil) throws(MailError) {
        if let composed {
            bodies = .template(composed.body)
            from = composed.from
            to = composed.to
            replyTo = composed.replyTo
        } else {
            guard let bodies = try record.storedBodies() else {
                throw MailError(.missingValue, "the message's bodies were purged")
            }
            self.bodies = bodies
            from = try MailAddress(parsing: record.sender)
            to = try MailAddress(parsing: record.recipient)
            replyTo = try record.replyTo.map { text throws(MailError) in try MailAddress(parsing: text) }
        }
        id = record.id
        projectID = record.projectID
        kind = record.kind
        language = record.language
        subject = record.subject
        messageID = record.messageID
        createdAt = record.createdAt
        action = record.action?.oobLink
    }

    /// The message in wire form (RFC 5322 with MIME), `Date` being when it was queued.
    public func mimeRepresentation() -> [UInt8] {
        MIMEMessage(
            from: from,
            to: to,
            replyTo: replyTo,
            subject: subject,
            dateMilliseconds: createdAt,
            messageID: messageID,
            language: language,
            text: text,
            html: html
        ).render()
    }

    /// The first whitespace-separated word starting `https://` or `http://`. Scans bytes:
    /// links are ASCII and this runs for every delivered message.
    static func firstWebLink(in text: String) -> String? {
        let bytes = Array(text.utf8)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        func starts(_ prefix: StaticString, at index: Int) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            return (0..<count).allSatisfy { bytes[index + $0] == prefix.utf8Start[$0] }
        }
        var index = 0
        while index < bytes.count {
            if index == 0 || isSpace(bytes[index - 1]), starts("https://", at: index) || starts("http://", at: index) {
                let end = bytes[index...].firstIndex(where: isSpace) ?? bytes.count
                return String(decoding: bytes[index..<end], as: UTF8.self)
            }
            index += 1
        }
        return nil
    }
}
