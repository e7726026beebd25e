import HearthCrypto

/// Instance IDs of the retired Firebase Instance ID SDK, which the Installations SDKs carry
/// over as the FID of an app that used them (the default app only): 8 bytes of the SHA-1 of the
/// device's IID public key, first four bits forced to `0111`, base64url without padding — 11
/// characters whose first is `c`, `d`, `e` or `f` and whose last encodes 4 bits followed by two
/// zero bits (`dy1ebDcq-R0`). The client proves nothing Hearth can check cryptographically: it
/// sends the legacy IID token it holds (`x-goog-fis-ios-iid-migration-auth` or
/// `x-goog-fis-android-iid-migration-auth`), which only Google's retired Instance ID service
/// could verify.
public enum LegacyInstanceID {
    public static let length = 11

    /// The longest migration token accepted; IID tokens are about 150–250 characters.
    public static let maximumTokenLength = 4_096

    /// Whether `text` has the shape of a legacy Instance ID
    /// (`[cdef][A-Za-z0-9_-]{9}[AEIMQUYcgkosw048]`).
    public static func isWellFormed(_ text: String) -> Bool {
        // The decoder refuses characters outside the alphabet and a last character whose two
        // unused bits are not zero.
        guard text.utf8.count == length, let bytes = Base64URL.decode(text), bytes.count == 8 else { return false }
        return bytes[0] >> 4 == 0b0111
    }

    /// Whether a registration may keep `id` as its FID on the strength of `token`, the legacy
    /// IID token the client sent in its migration header. All Hearth can check without an
    /// Instance ID backend: the ID's shape, that a token came at all (clients send one only
    /// when they migrate), that it is a plausible token (bounded, visible ASCII), and that a
    /// token which names its instance (`<instance ID>:<rest>`, as IID and FCM tokens do) names
    /// this one.
    public static func mayMigrate(_ id: String, provenBy token: String?) -> Bool {
        guard isWellFormed(id), let token, !token.isEmpty, token.utf8.count <= maximumTokenLength else {
            return false
        }
        guard token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return false }
        if let colon = token.utf8.firstIndex(of: UInt8(ascii: ":")) {
            let named = token.utf8[..<colon]
            if named.count == length || named.count == FID.length { return named.elementsEqual(id.utf8) }
        }
        return true
    }
}
