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
    public var text: String
    public var html: String
    /// With angle brackets; the same on every attempt, so receivers can drop duplicates.
    public var messageID: String
    public var createdAt: Int64
    /// The action link, for the log transport's summary.
    public var link: String?

    init(_ record: OutboxRecord) throws(MailError) {
        guard let (html, text) = try record.bodies() else {
            throw MailError(.missingValue, "the message's bodies were purged")
        }
        id = record.id
        projectID = record.projectID
        kind = record.kind
        language = record.language
        from = try MailAddress(parsing: record.sender)
        to = try MailAddress(parsing: record.recipient)
        replyTo = try record.replyTo.map { text throws(MailError) in try MailAddress(parsing: text) }
        subject = record.subject
        self.text = text
        self.html = html
        messageID = record.messageID
        createdAt = record.createdAt
        link = record.action?.oobLink ?? Self.firstWebLink(in: text)
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
