// `struct sockaddr` members resolve through the C module whose header included <sys/socket.h>.
import CMicroHTTPD
import Glibc

/// Text forms of socket addresses, for `Request.remoteAddress` and logs.
enum SocketAddress {
    /// `192.0.2.1` or `2001:db8::1`; an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what a
    /// dual-stack listener reports for IPv4 clients) is shown as the IPv4 address so that rate
    /// limits and logs see one form per client.
    static func describe(_ address: UnsafePointer<sockaddr>) -> String {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                describeIPv4(networkOrder: $0.pointee.sin_addr.s_addr)
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                var bytes = ipv6.pointee.sin6_addr
                let mapped = withUnsafeBytes(of: &bytes) { raw -> UInt32? in
                    guard raw[0..<10].allSatisfy({ $0 == 0 }), raw[10] == 0xFF, raw[11] == 0xFF else { return nil }
                    return raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self)
                }
                if let mapped { return describeIPv4(networkOrder: mapped) }
                var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
                guard inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count)) != nil else { return "" }
                return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        default:
            return ""
        }
    }

    /// Formats without `inet_ntop` or intermediate strings: this runs once per request.
    private static func describeIPv4(networkOrder: UInt32) -> String {
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

    static func port(of storage: sockaddr_storage) -> Int {
        var storage = storage
        return withUnsafePointer(to: &storage) { pointer in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin_port))
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            default:
                return 0
            }
        }
    }
}
