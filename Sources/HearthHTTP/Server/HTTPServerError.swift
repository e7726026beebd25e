/// Why the server could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `host` is not an IPv4 or IPv6 address (or `localhost`).
    case invalidAddress(String)
    /// Another socket already listens on this address and port.
    case addressInUse(host: String, port: Int)
    /// The address belongs to no local interface.
    case addressNotAvailable(host: String, port: Int)
    /// Binding needs a privilege the process lacks (ports below 1024).
    case permissionDenied(host: String, port: Int)
    case alreadyStarted
    /// A system call failed with `errno`.
    case systemCall(String, errno: Int32)
    /// libmicrohttpd refused to start; its log line says why.
    case daemonFailedToStart

    public var description: String {
        switch self {
        case .invalidAddress(let host): "\(host) is not a valid IP address to listen on"
        case .addressInUse(let host, let port): "\(host):\(port) is already in use by another process"
        case .addressNotAvailable(let host, let port): "\(host):\(port) is not an address of this machine"
        case .permissionDenied(let host, let port): "permission denied to listen on \(host):\(port)"
        case .alreadyStarted: "the server was already started"
        case .systemCall(let call, let errno): "\(call) failed with errno \(errno)"
        case .daemonFailedToStart: "libmicrohttpd failed to start (see its log line)"
        }
    }
}
