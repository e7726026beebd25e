import HearthCrypto

/// The server's secret that seals signing keys at rest (AES-256-GCM). It lives in the data
/// directory (`master.key`, mode 0600) or comes from `HEARTH_MASTER_KEY`; losing it makes
/// the stored private keys unreadable, so it is backed up with the database.
public struct MasterKey: Sendable {
    public static let byteCount = 32
    private let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    public static func generate() -> MasterKey {
        MasterKey(bytes: SecureRandom.bytes(count: byteCount))!
    }

    /// The key as base64url text, the form written to `master.key`.
    public var text: String { Base64URL.encode(bytes) }

    /// Reads the text form (base64url or base64, surrounding whitespace ignored).
    public init?(text: String) {
        let trimmed = text.filter { !$0.isWhitespace }
        guard let bytes = Base64URL.decode(trimmed) ?? Base64.decode(trimmed) else { return nil }
        self.init(bytes: bytes)
    }

    /// Encrypts and authenticates `plaintext`, bound to `context` (a key ID), so a sealed
    /// value moved to another row fails to open.
    func seal(_ plaintext: [UInt8], context: String) -> [UInt8] {
        AESGCM.seal(plaintext, key: bytes, associatedData: Array(context.utf8))
    }

    func open(_ sealed: [UInt8], context: String) throws -> [UInt8] {
        try AESGCM.open(sealed, key: bytes, associatedData: Array(context.utf8))
    }

    /// A 32-byte key for one `purpose` (HMAC-SHA256 of the purpose under the master key), so
    /// each use of the server's secret has its own key and none reveals another.
    public func derivedKey(for purpose: String) -> [UInt8] {
        HMACSHA256.authenticationCode(key: bytes, message: Array("hearth derived key: \(purpose)".utf8))
    }
}
