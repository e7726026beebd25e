import HearthCrypto

/// Refresh tokens: 32 random bytes in base64url, handed out once; the store keeps only their
/// SHA-256 (the token has 256 bits of entropy, so a plain hash cannot be brute-forced back).
public enum RefreshToken {
    /// Presented tokens longer than this are refused without hashing.
    public static let maximumLength = 512

    /// A new token and the hash to store for it.
    public static func generate() -> (token: String, hash: [UInt8]) {
        let token = Base64URL.encode(SecureRandom.bytes(count: 32))
        return (token, hash(token))
    }

    /// The stored form of a token.
    public static func hash(_ token: String) -> [UInt8] {
        SHA256.hash(utf8Of: token)
    }
}

/// The tokens a sign-in (or a token refresh) hands to the client.
public struct SessionTokens: Sendable, Equatable {
    public var idToken: String
    public var refreshToken: String
    public var expiresInSeconds: Int64

    public init(idToken: String, refreshToken: String, expiresInSeconds: Int64) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresInSeconds = expiresInSeconds
    }
}
