// `struct sockaddr` members resolve through the C module whose header included <sys/socket.h>.
import CMicroHTTPD
import Glibc

/// Text forms of socket addresses, for `Request.remoteAddress` and logs.
enum SocketAddress {
    /// The peer's address in ``IPAddress/describe(_:)``'s form.
    static func describe(_ address: UnsafePointer<sockaddr>) -> String {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                IPAddress.describeIPv4(networkOrder: $0.pointee.sin_addr.s_addr)
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                withUnsafeBytes(of: ipv6.pointee.sin6_addr) { IPAddress.describeIPv6($0) }
            }
        default:
            return ""
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
