/// Quoted-printable content transfer encoding (RFC 2045 §6.7) for text bodies: printable
/// ASCII stays readable, everything else becomes `=XX`, and lines are broken with soft
/// breaks (`=` CRLF) so none is longer than 76 characters.
enum QuotedPrintable {
    static let maximumLineLength = 76

    /// Encodes `text`, whose line breaks (LF or CRLF) become CRLF hard breaks.
    static func encode(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + text.utf8.count / 8)
        let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, rawLine) in lines.enumerated() {
            if index > 0 { output += [13, 10] }
            var line = rawLine[...]
            if line.last == 13 { line = line.dropLast() }
            encode(line: line, into: &output)
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func encode(line: Substring.UTF8View.SubSequence, into output: inout [UInt8]) {
        var column = 0
        for (offset, byte) in zip(line.indices, line) {
            let isLast = line.index(after: offset) == line.endIndex
            // Keep room for the soft break's "=" unless this is the line's last character.
            let limit = isLast ? maximumLineLength : maximumLineLength - 1
            var isLiteral = staysLiteral(byte, isLast: isLast, atLineStart: column == 0)
            if column + (isLiteral ? 1 : 3) > limit {
                output += [UInt8(ascii: "="), 13, 10]
                column = 0
                isLiteral = staysLiteral(byte, isLast: isLast, atLineStart: true)
            }
            if isLiteral {
                output.append(byte)
                column += 1
            } else {
                output += [UInt8(ascii: "="), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
                column += 3
            }
        }
    }

    /// Printable ASCII but `=`, and blanks not at the end of a line, are written as they are.
    /// A line-initial "." is encoded too, so that no relay mistakes it for the end of data.
    private static func staysLiteral(_ byte: UInt8, isLast: Bool, atLineStart: Bool) -> Bool {
        if atLineStart && byte == UInt8(ascii: ".") { return false }
        if byte == 0x20 || byte == 0x09 { return !isLast }
        return byte >= 33 && byte <= 126 && byte != UInt8(ascii: "=")
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
