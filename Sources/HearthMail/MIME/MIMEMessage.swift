import HearthCore
import HearthCrypto

/// A message as it goes over the wire (RFC 5322 + MIME): headers, then a
/// `multipart/alternative` body with the plain-text part first and the HTML part second
/// (clients show the last one they can). Every line ends in CRLF and is at most 78
/// characters. The bytes depend only on the message, so every attempt sends the same.
struct MIMEMessage {
    var from: MailAddress
    var to: MailAddress
    var replyTo: MailAddress?
    var subject: String
    var dateMilliseconds: Int64
    /// With angle brackets.
    var messageID: String
    var language: String
    var text: String
    var html: String

    func render() -> [UInt8] {
        // Neither quoted-printable nor base64 output can contain "=_", so the boundary never
        // occurs inside a part.
        let boundary = "=_hearth_" + Hex.encode(SHA256.hash(utf8Of: messageID).prefix(12))
        var message = ""
        message += HeaderField.raw("Date", MailDate.format(milliseconds: dateMilliseconds))
        message += HeaderField.mailbox("From", from)
        message += HeaderField.mailbox("To", to)
        if let replyTo { message += HeaderField.mailbox("Reply-To", replyTo) }
        message += HeaderField.unstructured("Subject", subject)
        message += HeaderField.raw("Message-ID", messageID)
        message += HeaderField.raw("MIME-Version", "1.0")
        message += HeaderField.raw("Content-Language", language)
        // RFC 3834: automatic replies (vacation notices) are not sent back to it.
        message += HeaderField.raw("Auto-Submitted", "auto-generated")
        message += HeaderField.raw("Content-Type", "multipart/alternative;\r\n boundary=\"\(boundary)\"")
        message += "\r\n"
        for (type, body) in [("text/plain", text), ("text/html", html)] {
            message += "--\(boundary)\r\n"
            let (encoding, encoded) = Self.transferEncoded(body)
            message += HeaderField.raw("Content-Type", "\(type); charset=utf-8")
            message += HeaderField.raw("Content-Transfer-Encoding", encoding)
            message += "\r\n" + encoded + "\r\n"
        }
        message += "--\(boundary)--\r\n"
        return Array(message.utf8)
    }

    /// Quoted-printable keeps mostly-ASCII text readable; base64 is a third the size for
    /// text in other scripts (Persian doubles in UTF-8 and triples again in `=XX`). The
    /// shorter wins.
    static func transferEncoded(_ body: String) -> (encoding: String, encoded: String) {
        let quotedPrintable = QuotedPrintable.encode(body)
        let normalized = Array(body.replacing("\r\n", with: "\n").replacing("\n", with: "\r\n").utf8)
        let base64Length = (normalized.count + 2) / 3 * 4
        guard base64Length < quotedPrintable.utf8.count else { return ("quoted-printable", quotedPrintable) }
        let base64 = Base64.encode(normalized)
        var lines: [Substring] = []
        var start = base64.startIndex
        while start < base64.endIndex {
            let end = base64.index(start, offsetBy: 76, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(base64[start..<end])
            start = end
        }
        return ("base64", lines.joined(separator: "\r\n"))
    }
}
