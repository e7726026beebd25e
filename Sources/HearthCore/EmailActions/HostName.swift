/// Host names compared the way a browser resolves them: case-folded, without a trailing dot,
/// internationalised labels in their `xn--` ASCII form, IPv6 literals in brackets.
enum HostName {
    /// The canonical form of `host`, or `nil` when it cannot be a host name.
    static func canonical(_ host: some StringProtocol) -> String? {
        if isAlreadyCanonical(host.utf8) { return String(host) }
        var text = String(host)
        if text.hasPrefix("[") {
            // An IPv6 literal: hex digits, colons and dots inside brackets.
            guard text.hasSuffix("]"), text.count > 2 else { return nil }
            let inner = text.dropFirst().dropLast().lowercased()
            guard inner.contains(":"), inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
            return "[\(inner)]"
        }
        if text.hasSuffix(".") { text.removeLast() }
        guard !text.isEmpty, text.utf8.count <= 253 else { return nil }
        var labels: [String] = []
        for label in text.lowercased().split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty else { return nil }
            if label.unicodeScalars.allSatisfy(\.isASCII) {
                guard label.utf8.allSatisfy(isLabelByte), label.utf8.count <= 63 else { return nil }
                labels.append(String(label))
            } else {
                guard
                    label.unicodeScalars.allSatisfy({
                        $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-"
                            || $0.isASCII && isLabelByte(UInt8($0.value))
                    }),
                    let encoded = Punycode.encode(String(label)), encoded.utf8.count + 4 <= 63
                else { return nil }
                labels.append("xn--" + encoded)
            }
        }
        return labels.joined(separator: ".")
    }

    /// Whether `host` is a lower-case ASCII name that `canonical` would answer unchanged:
    /// labels of 1 to 63 label bytes, no trailing dot, 253 bytes at most (the common case,
    /// checked without building anything).
    private static func isAlreadyCanonical(_ host: some Collection<UInt8>) -> Bool {
        guard host.count <= 253 else { return false }
        var labelLength = 0
        for byte in host {
            if byte == UInt8(ascii: ".") {
                if labelLength == 0 { return false }
                labelLength = 0
            } else {
                guard isLabelByte(byte) else { return false }
                labelLength += 1
                if labelLength > 63 { return false }
            }
        }
        return labelLength > 0
    }

    private static func isLabelByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
    }

    /// Whether `host` (canonical) is authorised by the entries (canonical or `*.` + canonical):
    /// an exact entry matches itself only; `*.example.com` matches every sub-domain of
    /// `example.com` but not `example.com` itself.
    static func isAuthorized(_ host: String, by entries: [String]) -> Bool {
        for entry in entries {
            if entry.hasPrefix("*.") {
                guard let parent = canonical(entry.dropFirst(2)) else { continue }
                if host.hasSuffix("." + parent) { return true }
            } else if let exact = canonical(entry), exact == host {
                return true
            }
        }
        return false
    }
}
