import HearthCrypto

/// Firebase installation IDs: 22 characters of URL-safe base64 holding 132 bits whose first
/// four are `0111` (so the first character is `c`, `d`, `e` or `f`) and whose other 128 are
/// random. Every Firebase SDK makes them this way. An installation may also hold a migrated
/// legacy Instance ID (``LegacyInstanceID``); anything else a client sends is replaced.
public enum FID {
    public static let length = 22

    /// Whether `text` is a well-formed FID (the JS SDK's `/^[cdef][\w-]{21}$/`).
    public static func isWellFormed(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == length, let first = utf8.first else { return false }
        guard first >= UInt8(ascii: "c") && first <= UInt8(ascii: "f") else { return false }
        return utf8.allSatisfy(isURLSafeBase64)
    }

    /// Whether `text` can name an installation: a well-formed FID or a legacy Instance ID.
    public static func isInstallationID(_ text: String) -> Bool {
        isWellFormed(text) || LegacyInstanceID.isWellFormed(text)
    }

    /// A fresh FID from the secure random source.
    public static func generate() -> String {
        make(fromRandom: SecureRandom.bytes(count: 17))
    }

    /// The FID made from 17 random bytes: the header nibble `0111` replaces the first byte's
    /// high half, the bytes are base64url-encoded and the first 22 characters kept.
    public static func make(fromRandom bytes: [UInt8]) -> String {
        precondition(bytes.count == 17, "an FID is made from 17 random bytes")
        var bytes = bytes
        bytes[0] = 0b0111_0000 | (bytes[0] & 0x0F)
        return String(Base64URL.encode(bytes).prefix(length))
    }

    private static func isURLSafeBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
