/// Base64 with the URL- and filename-safe alphabet (RFC 4648 §5), without padding, as JOSE (JWS, JWK)
/// and Firebase installation IDs use it.
public enum Base64URL {
    /// Encodes bytes without `=` padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Base64Codec.encodeToString(bytes, alphabet: .url, padded: false)
    }

    /// Decodes unpadded base64url; trailing `=` padding is tolerated when it is exactly right.
    ///
    /// - Returns: `nil` for characters outside the alphabet (including `+`, `/` and whitespace), impossible
    ///   lengths, wrong padding, or a last character with non-zero unused bits.
    public static func decode(_ string: some StringProtocol) -> [UInt8]? {
        Base64Codec.decode(string, alphabet: .url, padding: .optional)
    }

    /// Decodes unpadded base64url only, as the JWS compact serialisation requires.
    static func decodeUnpadded(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        Base64Codec.decode(bytes, alphabet: .url, padding: .forbidden)
    }
}
