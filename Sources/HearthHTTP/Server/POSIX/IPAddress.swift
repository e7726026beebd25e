import Glibc

/// IP addresses as bytes and as the one text form Hearth gives each: `192.0.2.1`, or
/// `2001:db8::1` as `inet_ntop` writes it. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`,
/// what a dual-stack listener reports for IPv4 clients) is the IPv4 address, so that rate
/// limits and logs see one form per client.
public enum IPAddress {
    /// The bytes of `text`, an IPv4 or IPv6 literal without brackets or port: 4, or 16 (an
    /// IPv4-mapped one gives its 4); `nil` for anything else.
    public static func parse(_ text: some StringProtocol) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.count <= Int(INET6_ADDRSTRLEN) else { return nil }
        let isIPv6 = text.contains(":")
        var bytes = [UInt8](repeating: 0, count: isIPv6 ? 16 : 4)
        let parsed = String(text).withCString { literal in
            bytes.withUnsafeMutableBytes { inet_pton(isIPv6 ? AF_INET6 : AF_INET, literal, $0.baseAddress) }
        }
        guard parsed == 1 else { return nil }
        return isIPv6 && isIPv4Mapped(bytes) ? Array(bytes[12...]) : bytes
    }

    /// The text form of 4 or 16 bytes (see the type's comment).
    public static func describe(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { raw in
            raw.count == 4 ? describeIPv4(networkOrder: raw.loadUnaligned(as: UInt32.self)) : describeIPv6(raw)
        }
    }

    static func describeIPv6(_ bytes: UnsafeRawBufferPointer) -> String {
        if isIPv4Mapped(bytes) {
            return describeIPv4(networkOrder: bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, bytes.baseAddress, &text, socklen_t(text.count)) != nil else { return "" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func isIPv4Mapped(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.count == 16 && bytes.prefix(10).allSatisfy { $0 == 0 }
            && bytes.dropFirst(10).prefix(2).allSatisfy { $0 == 0xFF }
    }

    /// Formats without `inet_ntop` or intermediate strings: this runs once per request.
    static func describeIPv4(networkOrder: UInt32) -> String {
        withUnsafeBytes(of: networkOrder) { octets in
            String(unsafeUninitializedCapacity: 15) { text in
                var count = 0
                for index in 0..<4 {
                    if index > 0 {
                        text[count] = UInt8(ascii: ".")
                        count += 1
                    }
                    let octet = octets[index]
                    if octet >= 100 {
                        text[count] = UInt8(ascii: "0") &+ octet / 100
                        count += 1
                    }
                    if octet >= 10 {
                        text[count] = UInt8(ascii: "0") &+ octet / 10 % 10
                        count += 1
                    }
                    text[count] = UInt8(ascii: "0") &+ octet % 10
                    count += 1
                }
                return count
            }
        }
    }
}
