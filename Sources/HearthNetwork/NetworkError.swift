/// A failed outgoing transfer (webhook POST, SMTP delivery).
public struct NetworkError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Could not connect, TLS failed, the peer hung up, ...
        case transport
        /// The transfer took longer than its timeout.
        case timeout
        /// The peer answered, but refused (an SMTP 5xx, for example).
        case rejected
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
