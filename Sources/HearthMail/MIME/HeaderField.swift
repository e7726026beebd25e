import HearthCore
import HearthCrypto

/// Writes header fields (RFC 5322) whose values may hold any text: printable ASCII is
/// folded at spaces; anything else — or a word too long to fold — becomes RFC 2047
/// encoded-words (`=?UTF-8?B?...?=`) of whole characters, one per folded line, so no
/// line exceeds 78 characters and no value can break out of its field.
enum HeaderField {
    /// Lines are kept to this length (RFC 5322 §2.1.1 recommends 78; 998 is the hard limit).
    static let lineLength = 78

    /// `Name: value` CRLF, for unstructured values such as `Subject`.
    static func unstructured(_ name: String, _ value: String) -> String {
        let value = singleLine(value)
        let prefix = "\(name): "
        if isPlainASCII(value), let folded = foldAtSpaces(value, firstLineRoom: lineLength - prefix.count) {
            return prefix + folded + "\r\n"
        }
        return prefix + encodedWords(value, firstLineRoom: lineLength - prefix.count) + "\r\n"
    }

    /// `Name: "Display Name" <address>` CRLF.
    static func mailbox(_ name: String, _ mailbox: MailAddress) -> String {
        let prefix = "\(name): "
        guard let displayName = mailbox.displayName.map(singleLine), !displayName.isEmpty else {
            return prefix + mailbox.address + "\r\n"
        }
        let phrase: String
        if isPlainASCII(displayName) && prefix.count + displayName.utf8.count + 2 <= lineLength {
            let escaped = displayName.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            phrase = "\"\(escaped)\""
        } else {
            phrase = encodedWords(displayName, firstLineRoom: lineLength - prefix.count)
        }
        // "\r\n" is one Character in Swift, so folded lines are split on it whole.
        let lastLine = phrase.split(separator: "\r\n").last.map(\.utf8.count) ?? 0
        let onFirstLine = !phrase.contains("\r\n")
        let used = (onFirstLine ? prefix.count : 0) + lastLine
        let separator = used + 3 + mailbox.address.utf8.count <= lineLength ? " " : "\r\n "
        return prefix + phrase + separator + "<\(mailbox.address)>\r\n"
    }

    /// A structured value written as it is (`Message-ID`, `Date`, `Content-Type`).
    static func raw(_ name: String, _ value: String) -> String {
        "\(name): \(value)\r\n"
    }

    /// Control characters (line breaks included) become spaces: a value is one line.
    static func singleLine(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }
            )
        )
    }

    /// Printable ASCII that cannot be mistaken for an encoded-word.
    static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } && !text.contains("=?")
    }

    /// The text folded before spaces so that each line fits, or `nil` when a word is too long.
    static func foldAtSpaces(_ text: String, firstLineRoom: Int) -> String? {
        var output = ""
        var room = firstLineRoom
        var used = 0
        for (index, word) in text.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            if index == 0 {
                output += word
                used = word.utf8.count
            } else if used + 1 + word.utf8.count <= room {
                output += " " + word
                used += 1 + word.utf8.count
            } else {
                // The folding white space is kept: unfolding removes only the CRLF.
                output += "\r\n " + word
                room = lineLength
                used = 1 + word.utf8.count
            }
            if used > room { return nil }
        }
        return output
    }

    /// `=?UTF-8?B?...?=` words of whole Unicode scalars, each on its own folded line.
    static func encodedWords(_ text: String, firstLineRoom: Int) -> String {
        let overhead = "=?UTF-8?B??=".count
        var words: [String] = []
        var chunk: [UInt8] = []
        var room = firstLineRoom
        func capacity(_ room: Int) -> Int { (room - overhead) / 4 * 3 }
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if !chunk.isEmpty && chunk.count + bytes.count > capacity(room) {
                words.append("=?UTF-8?B?\(Base64.encode(chunk))?=")
                chunk = []
                room = lineLength - 1
            }
            chunk += bytes
        }
        words.append("=?UTF-8?B?\(Base64.encode(chunk))?=")
        return words.joined(separator: "\r\n ")
    }
}
