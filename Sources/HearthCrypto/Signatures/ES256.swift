/// ECDSA on P-256 with SHA-256, the JWS algorithm `ES256` (RFC 7518 §3.4). Signatures are the JWS form:
/// 64 bytes, `r ‖ s`.
public enum ES256 {
    /// The JWS `alg` value.
    public static let algorithm = "ES256"

    /// A P-256 private key. Immutable; safe to share between threads.
    public final class PrivateKey: Sendable {
        let key: EVPKey
        private let signer: SHA256SignatureContext
        /// Nonces made ahead in batches (the fast path); `signer` signs when it has none.
        private let nonces: ECDSANoncePool?
        /// The matching public key, derived once.
        public let publicKey: PublicKey

        private init(key: EVPKey) {
            self.key = key
            self.signer = SHA256SignatureContext(key: key, purpose: .sign)
            self.nonces = ECDSANoncePool(key: key)
            self.publicKey = PublicKey(validated: key.publicOnly())
        }

        /// Generates a fresh key pair.
        public static func generate() -> PrivateKey {
            PrivateKey(key: .generateP256())
        }

        /// Parses a PEM private key: PKCS#8 (`PRIVATE KEY`) or SEC 1 (`EC PRIVATE KEY`). Encrypted PEM is
        /// refused.
        /// - Throws: `CryptoError` of kind `.invalidKey` when the text is not a P-256 private key.
        public convenience init(pem: String) throws {
            let operation = "ES256 private key from PEM"
            let key = try EVPKey.privateKey(pem: pem, operation: operation)
            try ES256.requireP256(key, operation: operation)
            self.init(key: key)
        }

        /// The key as unencrypted PKCS#8 PEM. Treat it as a secret (see `AESGCM` for storage at rest).
        public var pemRepresentation: String {
            key.privateKeyPEM
        }

        /// Signs `message`.
        /// - Returns: The 64-byte JWS signature `r ‖ s`.
        public func signature(for message: some Collection<UInt8>) throws -> [UInt8] {
            try withContiguousBytes(of: message) { message in
                try withSignature(for: message) { Array($0) }
            }
        }

        /// Signs `message` and passes the 64-byte `r ‖ s` to `body` from a temporary buffer.
        func withSignature<R>(for message: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R)
            throws -> R
        {
            let operation = "ES256 signing"
            if let nonces {
                let signed = withUnsafeTemporaryAllocation(byteCount: ECDSASignature.rawByteCount, alignment: 1) {
                    raw -> Result<R, any Error>? in
                    let done = SHA256SignatureContext.withDigest(of: message) { nonces.sign(digest: $0, into: raw) }
                    guard done else { return nil }
                    return Result { try body(UnsafeRawBufferPointer(raw)) }
                }
                if let signed { return try signed.get() }
            }
            return try signer.withSignature(for: message, operation: operation) { der in
                try withUnsafeTemporaryAllocation(byteCount: ECDSASignature.rawByteCount, alignment: 1) { raw in
                    guard ECDSASignature.raw(fromDER: der, into: raw) else {
                        throw CryptoError(.libraryFailure, operation: operation, detail: "unexpected DER signature")
                    }
                    return try body(UnsafeRawBufferPointer(raw))
                }
            }
        }
    }

    /// A P-256 public key. Immutable; safe to share between threads.
    public final class PublicKey: Sendable {
        let key: EVPKey
        private let verifier: SHA256SignatureContext
        /// The key as a JWK: `kty` `EC`, `crv` `P-256`, `x` and `y` (32 bytes each, base64url), `alg` `ES256`,
        /// `use` `sig`. Set `kid` on a copy before publishing it.
        public let jwk: JSONWebKey

        /// Wraps a key already known to be a P-256 public key.
        init(validated key: EVPKey) {
            guard let x = key.bigNumberParameter("qx", paddedTo: 32),
                let y = key.bigNumberParameter("qy", paddedTo: 32)
            else {
                preconditionFailure("P-256 key without affine coordinates")
            }
            self.key = key
            self.verifier = SHA256SignatureContext(key: key, purpose: .verify)
            self.jwk = JSONWebKey(
                kty: "EC",
                crv: "P-256",
                x: Base64URL.encode(x),
                y: Base64URL.encode(y),
                alg: ES256.algorithm,
                use: "sig"
            )
        }

        /// Parses a PEM public key (`PUBLIC KEY`, SubjectPublicKeyInfo).
        /// - Throws: `CryptoError` of kind `.invalidKey` when the text is not a P-256 public key.
        public convenience init(pem: String) throws {
            let operation = "ES256 public key from PEM"
            let key = try EVPKey.publicKey(pem: pem, operation: operation)
            try ES256.requireP256(key, operation: operation)
            guard key.passesPublicCheck() else {
                throw CryptoError(.invalidKey, operation: operation, detail: "point is not a valid P-256 public key")
            }
            self.init(validated: key)
        }

        /// Builds the key from a JWK with `kty` `EC`, `crv` `P-256` and 32-byte `x` and `y`. An `alg`, when
        /// present, must be `ES256`.
        /// - Throws: `CryptoError` of kind `.invalidKey` for any other JWK or a point not on the curve.
        public convenience init(jwk: JSONWebKey) throws {
            let operation = "ES256 public key from JWK"
            func invalid(_ detail: String) -> CryptoError {
                CryptoError(.invalidKey, operation: operation, detail: detail)
            }
            guard jwk.kty == "EC" else { throw invalid("kty is not EC") }
            guard jwk.crv == "P-256" else { throw invalid("crv is not P-256") }
            guard jwk.alg == nil || jwk.alg == ES256.algorithm else { throw invalid("alg is not ES256") }
            guard let xText = jwk.x, let x = Base64URL.decode(xText), x.count == 32,
                let yText = jwk.y, let y = Base64URL.decode(yText), y.count == 32
            else {
                throw invalid("x and y must be 32 bytes of base64url each")
            }
            self.init(validated: try EVPKey.p256PublicKey(x: x, y: y, operation: operation))
        }

        /// The key as SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`).
        public var pemRepresentation: String {
            key.publicKeyPEM
        }

        /// Whether `signature` is a valid 64-byte `r ‖ s` signature of `message` by this key. Never throws:
        /// wrong lengths, out-of-range `r` or `s`, and every other malformation are `false`.
        public func isValidSignature(_ signature: [UInt8], for message: some Collection<UInt8>) -> Bool {
            signature.withUnsafeBytes { signature in
                withContiguousBytes(of: message) { message in
                    isValidSignature(signature, for: message)
                }
            }
        }

        func isValidSignature(_ signature: UnsafeRawBufferPointer, for message: UnsafeRawBufferPointer) -> Bool {
            ECDSASignature.withDER(fromRaw: signature) { der in
                verifier.isValidSignature(der, for: message)
            } ?? false
        }
    }

    /// OpenSSL names P-256 `prime256v1` (its short name); the other spellings are accepted for safety.
    private static let p256GroupNames: Set<String> = ["prime256v1", "P-256", "secp256r1"]

    fileprivate static func requireP256(_ key: EVPKey, operation: String) throws {
        guard key.isA("EC"), let group = key.groupName, p256GroupNames.contains(group) else {
            throw CryptoError(.invalidKey, operation: operation, detail: "not a P-256 (prime256v1) EC key")
        }
    }
}
