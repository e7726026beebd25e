/// Base64 with the standard alphabet (RFC 4648 §4), as PEM bodies, HTTP Basic credentials and PHC strings
/// use it.
public enum Base64 {
    /// Encodes bytes with `=` padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Base64Codec.encodeToString(bytes, alphabet: .standard, padded: true)
    }

    /// Decodes standard base64 with correct `=` padding, or without padding at all.
    ///
    /// - Returns: `nil` for characters outside the alphabet (including `-`, `_` and whitespace), impossible
    ///   lengths, wrong padding, or a last character with non-zero unused bits.
    public static func decode(_ string: some StringProtocol) -> [UInt8]? {
        Base64Codec.decode(string, alphabet: .standard, padding: .optional)
    }

    /// Encodes without padding, as the PHC string format writes salts and hashes.
    static func encodeUnpadded(_ bytes: some Sequence<UInt8>) -> String {
        Base64Codec.encodeToString(bytes, alphabet: .standard, padded: false)
    }

    /// Decodes unpadded standard base64 only, as the PHC string format requires.
    static func decodeUnpadded(_ string: some StringProtocol) -> [UInt8]? {
        Base64Codec.decode(string, alphabet: .standard, padding: .forbidden)
    }
}
