/// A failure in a cryptographic operation, with enough context to log: which operation failed and, when the
/// C library reported one, its own error text.
///
/// Verification functions return `Bool` instead of throwing; this error is for key parsing, signing and
/// decryption, where the caller needs to know why.
public struct CryptoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broad class of failure, for callers that react differently to each.
    public enum Kind: Sendable, Hashable {
        /// Key material could not be parsed or is not acceptable (wrong type, curve or size).
        case invalidKey
        /// Authenticated decryption failed: wrong key, wrong associated data or tampered data.
        case authenticationFailure
        /// Input other than a key is malformed (for example a sealed box that is too short).
        case invalidInput
        /// The C library failed where it should not have (allocation failure, internal error).
        case libraryFailure
    }

    /// The broad class of failure.
    public let kind: Kind
    /// The operation that failed, for example `"ES256 private key from PEM"`.
    public let operation: String
    /// The reason: OpenSSL's error strings when it gave any, otherwise our own explanation.
    public let detail: String?

    public init(_ kind: Kind, operation: String, detail: String? = nil) {
        self.kind = kind
        self.operation = operation
        self.detail = detail
    }

    public var description: String {
        if let detail {
            return "\(operation) failed (\(kind)): \(detail)"
        }
        return "\(operation) failed (\(kind))"
    }
}
