import HearthBase

/// The rule for account emails: what is accepted and the one spelling that is stored.
///
/// Firebase lower-cases the whole address and accepts anything shaped `local@domain`; Hearth
/// does the same with a few more guards a mail transport needs: no whitespace or control
/// characters, one `@`, a local part of at most 64 bytes, a domain of at most 253 bytes made of
/// non-empty labels, and at most 254 bytes in all (RFC 5321's limits). Leading and trailing
/// spaces are trimmed, as a form field would be.
public enum EmailAddress {
    private static let forbiddenBytes = ByteSet(" \"(),:;<>[\\]".utf8)

    /// The normalised address, or `nil` when `text` is not an acceptable email. Checked on
    /// UTF-8 bytes (every delimiter is ASCII); only non-ASCII text is looked at as scalars.
    public static func normalized(_ text: String) -> String? {
        let trimmed = text.trimmingASCIIWhitespace()
        let bytes = trimmed.utf8
        guard !bytes.isEmpty, bytes.count <= 254 else { return nil }
        var at: String.Index?
        var hasNonASCII = false
        var hasUpperCase = false
        for index in bytes.indices {
            let byte = bytes[index]
            if byte >= 0x80 {
                hasNonASCII = true
            } else if byte < 0x20 || byte == 0x7F || forbiddenBytes.contains(byte) {
                return nil
            } else if byte == UInt8(ascii: "@") {
                guard at == nil else { return nil }
                at = index
            } else if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
                hasUpperCase = true
            }
        }
        guard let at else { return nil }
        let localLength = bytes.distance(from: bytes.startIndex, to: at)
        let domainLength = bytes.count - localLength - 1
        guard localLength > 0, localLength <= 64, domainLength > 0, domainLength <= 253 else { return nil }
        // Non-ASCII whitespace (no-break space, ideographic space, ...) is refused too.
        if hasNonASCII, trimmed.unicodeScalars.contains(where: { !$0.isASCII && $0.properties.isWhitespace }) {
            return nil
        }
        // Every label of the domain is 1 to 63 bytes.
        var labelLength = 0
        for byte in bytes[bytes.index(after: at)...] {
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0 else { return nil }
                labelLength = 0
            } else {
                labelLength += 1
                guard labelLength <= 63 else { return nil }
            }
        }
        guard labelLength > 0 else { return nil }
        return hasNonASCII || hasUpperCase ? trimmed.lowercased() : trimmed
    }
}
