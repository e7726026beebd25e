/// A request method. The common ones are cases so that routing and matching stay cheap.
public enum HTTPMethod: Sendable, Hashable, CustomStringConvertible {
    case get, post, put, patch, delete, head, options
    /// Any other token (`TRACE`, `PROPFIND`, …), as sent.
    case other(String)

    public init(_ token: String) {
        switch token {
        case "GET": self = .get
        case "POST": self = .post
        case "PUT": self = .put
        case "PATCH": self = .patch
        case "DELETE": self = .delete
        case "HEAD": self = .head
        case "OPTIONS": self = .options
        default: self = .other(token)
        }
    }

    /// Parses the NUL-terminated token libmicrohttpd hands over without building a `String` for
    /// the common methods.
    init(cString token: UnsafePointer<CChar>) {
        func matches(_ literal: StaticString) -> Bool {
            strncmpLiteral(token, literal)
        }
        switch UInt8(bitPattern: token[0]) {
        case UInt8(ascii: "G") where matches("GET"): self = .get
        case UInt8(ascii: "P") where matches("POST"): self = .post
        case UInt8(ascii: "P") where matches("PUT"): self = .put
        case UInt8(ascii: "P") where matches("PATCH"): self = .patch
        case UInt8(ascii: "D") where matches("DELETE"): self = .delete
        case UInt8(ascii: "H") where matches("HEAD"): self = .head
        case UInt8(ascii: "O") where matches("OPTIONS"): self = .options
        default: self = .other(String(cString: token))
        }
    }

    /// The method token as it appears on the wire.
    public var rawValue: String {
        switch self {
        case .get: "GET"
        case .post: "POST"
        case .put: "PUT"
        case .patch: "PATCH"
        case .delete: "DELETE"
        case .head: "HEAD"
        case .options: "OPTIONS"
        case .other(let token): token
        }
    }

    public var description: String { rawValue }
}

/// Whether the C string `text` equals `literal` exactly.
private func strncmpLiteral(_ text: UnsafePointer<CChar>, _ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    let bytes = literal.utf8Start
    for index in 0..<count where UInt8(bitPattern: text[index]) != bytes[index] { return false }
    return text[count] == 0
}
