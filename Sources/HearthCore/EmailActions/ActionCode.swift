import HearthCrypto

/// The one-time codes of email actions: 32 random bytes in base64url (43 characters), of
/// which the store keeps only a SHA-256.
public enum ActionCode {
    /// A new code and the hash to store.
    public static func generate() -> (code: String, hash: [UInt8]) {
        let code = Base64URL.encode(SecureRandom.bytes(count: 32))
        return (code, hash(code))
    }

    public static func hash(_ code: String) -> [UInt8] { SHA256.hash(Array(code.utf8)) }

    /// Codes longer than this are not ours and are refused without a lookup.
    public static let maximumLength = 256
}

/// What a code is, as `accounts:resetPassword` with only an `oobCode` reports it.
public struct ActionCodeInfo: Sendable, Equatable {
    public var operation: ActionCodeOperation
    /// For a verify-and-change code the current address; for a recover code the address to
    /// restore; otherwise the address the code was sent for.
    public var email: String
    /// For a verify-and-change code the new address; for a recover code the address it undoes.
    public var newEmail: String?
    public var localID: String?
}
