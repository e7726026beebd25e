import HearthCrypto

/// The one-time codes of email actions: 38 bytes in base64url (51 characters), the creation
/// time in milliseconds (6 bytes, big-endian) followed by 32 random bytes (PRODUCT.md: at
/// least 32 random bytes).
///
/// The store keeps only the code's storage key: that time prefix followed by the SHA-256 of
/// the whole code. The prefix orders new codes at the end of the store's index, so a group of
/// writes adds to one page instead of dirtying a random page per code (and the log and the
/// checkpoint write each such page); the hash keeps the code itself out of the store. The
/// creation time a code reveals is no secret to its recipient.
public enum ActionCode {
    private static let timeByteCount = 6
    private static let randomByteCount = 32
    private static let timeCharacterCount = 8  // base64url of 6 bytes, no padding

    /// A new code made at `milliseconds` (Unix time), and the key to store.
    public static func generate(atMilliseconds milliseconds: Int64) -> (code: String, key: [UInt8]) {
        var bytes = (0..<timeByteCount).reversed().map { UInt8(truncatingIfNeeded: milliseconds >> ($0 * 8)) }
        bytes += SecureRandom.bytes(count: randomByteCount)
        let code = Base64URL.encode(bytes)
        return (code, storageKey(timePrefix: Array(bytes.prefix(timeByteCount)), code: code))
    }

    /// The key a code is stored under. Any string has one (a malformed code's simply matches
    /// nothing).
    public static func storageKey(_ code: String) -> [UInt8] {
        let prefix = code.utf8.count >= timeCharacterCount ? Base64URL.decode(code.prefix(timeCharacterCount)) : nil
        return storageKey(timePrefix: prefix ?? [UInt8](repeating: 0, count: timeByteCount), code: code)
    }

    /// The time prefix, then the code's hash.
    private static func storageKey(timePrefix: [UInt8], code: String) -> [UInt8] {
        timePrefix + SHA256.hash(utf8Of: code)
    }

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
