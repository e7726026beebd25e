import HearthCrypto
import HearthWire

/// Firebase installation IDs: 22 characters of URL-safe base64 holding 132 bits whose first
/// four are `0111` (so the first character is `c`, `d`, `e` or `f`) and whose other 128 are
/// random. Every Firebase SDK makes them this way. An installation may also hold a migrated
/// legacy Instance ID (``LegacyInstanceID``); anything else a client sends is replaced.
public enum FID {
    public static let length = InstallationID.length

    /// Whether `text` is a well-formed FID (HearthWire's rule, shared with the SDKs).
    public static func isWellFormed(_ text: String) -> Bool { InstallationID.isWellFormed(text) }

    /// Whether `text` can name an installation: a well-formed FID or a legacy Instance ID.
    public static func isInstallationID(_ text: String) -> Bool {
        isWellFormed(text) || LegacyInstanceID.isWellFormed(text)
    }

    /// A fresh FID from the secure random source.
    public static func generate() -> String {
        make(fromRandom: SecureRandom.bytes(count: 17))
    }

    /// The FID made from 17 random bytes (HearthWire's rule, shared with the SDKs).
    public static func make(fromRandom bytes: [UInt8]) -> String { InstallationID.make(fromRandom: bytes) }
}
