import HearthCrypto

/// Installation refresh tokens: 32 random bytes, base64url, behind a version prefix (`3_`,
/// as Firebase's own tokens carry one). Only their SHA-256 is stored; a presented token is
/// hashed and compared in constant time.
public enum RefreshToken {
    static let prefix = "3_"

    /// A new token and the hash to store for it.
    public static func generate() -> (token: String, hash: [UInt8]) {
        let token = prefix + Base64URL.encode(SecureRandom.bytes(count: 32))
        return (token, hash(token))
    }

    public static func hash(_ token: String) -> [UInt8] {
        SHA256.hash(token.utf8)
    }

    /// Whether `presented` is the token whose hash is `storedHash` (constant time).
    public static func matches(_ presented: String, storedHash: [UInt8]) -> Bool {
        constantTimeEquals(hash(presented), storedHash)
    }

    /// The refresh token of an `Authorization: FIS_v2 <token>` header (scheme matched without
    /// regard to case), or `nil` when the header is missing or has another form.
    public static func fromAuthorization(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "fis_v2" else { return nil }
        let token = parts[1].trimmingCharacters(in: " \t")
        guard !token.isEmpty, token.utf8.count <= 512 else { return nil }
        return token
    }
}
