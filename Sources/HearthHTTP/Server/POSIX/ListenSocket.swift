import Glibc

/// Opens the listening socket ourselves rather than letting libmicrohttpd do it: we get exact
/// errors (address in use, not available), the bound port for port 0, and IPv6 hosts.
enum ListenSocket {
    struct Opened {
        let descriptor: Int32
        let port: Int
    }

    /// Binds and listens on `host` (an IPv4 or IPv6 literal, `[::1]`, or `localhost`) and
    /// `port` (0 picks a free one). The socket is non-blocking and close-on-exec.
    ///
    /// - Parameter reusePort: let several sockets of this process listen on the port
    ///   (`SO_REUSEPORT`); the kernel then spreads new connections evenly across them.
    static func open(host: String, port: Int, backlog: Int32, reusePort: Bool = false) throws(HTTPServerError)
        -> Opened
    {
        guard (0...65535).contains(port) else { throw .invalidAddress("\(host):\(port)") }
        var storage = sockaddr_storage()
        let length: socklen_t
        let family: Int32
        var literal = host == "localhost" ? "127.0.0.1" : host
        if literal.hasPrefix("[") && literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, literal, &ipv4) == 1 {
            family = AF_INET
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { raw in
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                address.pointee.sin_family = sa_family_t(AF_INET)
                address.pointee.sin_port = in_port_t(UInt16(port).bigEndian)
                address.pointee.sin_addr = ipv4
            }
        } else if inet_pton(AF_INET6, literal, &ipv6) == 1 {
            family = AF_INET6
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { raw in
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                address.pointee.sin6_family = sa_family_t(AF_INET6)
                address.pointee.sin6_port = in_port_t(UInt16(port).bigEndian)
                address.pointee.sin6_addr = ipv6
            }
        } else {
            throw .invalidAddress(host)
        }

        let descriptor = socket(
            family,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
            0
        )
        guard descriptor >= 0 else { throw .systemCall("socket", errno: errno) }
        do throws(HTTPServerError) {
            // Lets a restarted server bind while old connections sit in TIME_WAIT; on its own it
            // does not allow two listeners on one port (SO_REUSEPORT does, for our own workers).
            var one: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if reusePort {
                setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            let bound = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
            }
            if bound != 0 {
                switch errno {
                case EADDRINUSE: throw .addressInUse(host: host, port: port)
                case EADDRNOTAVAIL: throw .addressNotAvailable(host: host, port: port)
                case EACCES: throw .permissionDenied(host: host, port: port)
                case let code: throw .systemCall("bind", errno: code)
                }
            }
            guard listen(descriptor, backlog) == 0 else { throw .systemCall("listen", errno: errno) }
            var actual = sockaddr_storage()
            var actualLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let named = withUnsafeMutablePointer(to: &actual) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &actualLength) }
            }
            guard named == 0 else { throw .systemCall("getsockname", errno: errno) }
            return Opened(descriptor: descriptor, port: SocketAddress.port(of: actual))
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Opens `count` sockets on one port with `SO_REUSEPORT`, one per worker, after checking
    /// that nothing else listens there (a port shared by accident would split the traffic).
    static func openGroup(host: String, port: Int, backlog: Int32, count: Int) throws(HTTPServerError) -> [Opened] {
        if port != 0 {
            let probe = try open(host: host, port: port, backlog: backlog)
            close(probe.descriptor)
        }
        var opened: [Opened] = []
        do throws(HTTPServerError) {
            let first = try open(host: host, port: port, backlog: backlog, reusePort: true)
            opened.append(first)
            while opened.count < count {
                opened.append(try open(host: host, port: first.port, backlog: backlog, reusePort: true))
            }
            return opened
        } catch {
            for socket in opened { close(socket.descriptor) }
            throw error
        }
    }
}
