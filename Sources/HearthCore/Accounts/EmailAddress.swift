import HearthBase

/// The rule for account emails: what is accepted and the one spelling that is stored.
///
/// Firebase lower-cases the whole address and accepts anything shaped `local@domain`; Hearth
/// does the same with a few more guards a mail transport needs: no whitespace or control
/// characters, one `@`, a local part of at most 64 bytes, a domain of at most 253 bytes made of
/// non-empty labels, and at most 254 bytes in all (RFC 5321's limits). Leading and trailing
/// spaces are trimmed, as a form field would be.
public enum EmailAddress {
    /// The normalised address, or `nil` when `text` is not an acceptable email.
    private static let forbiddenBytes = Set(" \"(),:;<>[\\]".utf8)

    public static func normalized(_ text: String) -> String? {
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= 254 else { return nil }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let local = parts[0]
        let domain = parts[1]
        guard !local.isEmpty, local.utf8.count <= 64, !domain.isEmpty, domain.utf8.count <= 253 else { return nil }
        for byte in trimmed.utf8 where byte < 0x80 {
            if byte < 0x20 || byte == 0x7F || forbiddenBytes.contains(byte) { return nil }
        }
        // Non-ASCII whitespace (no-break space, ideographic space, ...) is refused too.
        if trimmed.utf8.contains(where: { $0 >= 0x80 }),
            trimmed.unicodeScalars.contains(where: { !$0.isASCII && $0.properties.isWhitespace })
        {
            return nil
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 63 }) else { return nil }
        return trimmed.lowercased()
    }
}
