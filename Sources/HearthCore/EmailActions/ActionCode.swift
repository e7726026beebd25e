import HearthCrypto
public import HearthWire

/// The one-time codes of email actions: 38 bytes in base64url (51 characters), the code's
/// expiry time in milliseconds (6 bytes, big-endian) followed by 32 random bytes (PRODUCT.md:
/// at least 32 random bytes).
///
/// The store keeps only the code's storage key: that time prefix followed by the SHA-256 of
/// the whole code. The prefix orders the store's codes by expiry, so new codes of one
/// lifetime add to one page at the end of their range instead of dirtying a random page per
/// code (and the log and the checkpoint write each such page), and expired codes are found
/// by a range of keys, with no index of their own. The hash keeps the code itself out of the
/// store. The expiry time a code reveals is no secret to its recipient.
public enum ActionCode {
    private static let timeByteCount = 6
    private static let randomByteCount = 32
    private static let timeCharacterCount = 8  // base64url of 6 bytes, no padding

    /// A new code that expires at `milliseconds` (Unix time), and the key to store.
    public static func generate(expiringAtMilliseconds milliseconds: Int64) -> (code: String, key: [UInt8]) {
        var bytes = timePrefix(milliseconds)
        bytes += SecureRandom.bytes(count: randomByteCount)
        let code = Base64URL.encode(bytes)
        return (code, storageKey(timePrefix: Array(bytes.prefix(timeByteCount)), code: code))
    }

    /// The storage keys of codes that expired before `milliseconds` all sort below this one,
    /// and a code expiring later never does.
    public static func keyBound(expiringBefore milliseconds: Int64) -> [UInt8] {
        timePrefix(milliseconds)
    }

    private static func timePrefix(_ milliseconds: Int64) -> [UInt8] {
        (0..<timeByteCount).reversed().map { UInt8(truncatingIfNeeded: milliseconds >> ($0 * 8)) }
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
