/// RSASSA-PKCS1-v1_5 with SHA-256, the JWS algorithm `RS256` (RFC 7518 §3.3). Keys have at least 2048 bits.
public enum RS256 {
    /// The JWS `alg` value.
    public static let algorithm = "RS256"
    /// The smallest modulus accepted anywhere (RFC 7518 §3.3 requires 2048).
    public static let minimumModulusBits = 2048
    /// The largest modulus accepted, OpenSSL's own limit (`OPENSSL_RSA_MAX_MODULUS_BITS`); it also bounds the
    /// cost an untrusted JWK can impose.
    public static let maximumModulusBits = 16384

    /// An RSA private key. Immutable; safe to share between threads.
    public final class PrivateKey: Sendable {
        let key: EVPKey
        private let signer: SHA256SignatureContext
        /// The matching public key, derived once.
        public let publicKey: PublicKey

        private init(key: EVPKey) {
            self.key = key
            self.signer = SHA256SignatureContext(key: key, purpose: .sign)
            self.publicKey = PublicKey(validated: key.publicOnly())
        }

        /// Generates a fresh key pair with public exponent 65537. Takes tens to hundreds of milliseconds.
        public static func generate(bits: Int = 2048) -> PrivateKey {
            precondition(
                (minimumModulusBits...maximumModulusBits).contains(bits) && bits % 8 == 0,
                "RSA key size must be a multiple of 8 between \(minimumModulusBits) and \(maximumModulusBits) bits"
            )
            return PrivateKey(key: .generateRSA(bits: bits))
        }

        /// Parses a PEM private key: PKCS#8 (`PRIVATE KEY`) or PKCS#1 (`RSA PRIVATE KEY`). Encrypted PEM is
        /// refused.
        /// - Throws: `CryptoError` of kind `.invalidKey` when the text is not an RSA private key of an accepted
        ///   size.
        public convenience init(pem: String) throws {
            let operation = "RS256 private key from PEM"
            let key = try EVPKey.privateKey(pem: pem, operation: operation)
            try RS256.requireRSA(key, operation: operation)
            self.init(key: key)
        }

        /// The key as unencrypted PKCS#8 PEM. Treat it as a secret (see `AESGCM` for storage at rest).
        public var pemRepresentation: String {
            key.privateKeyPEM
        }

        /// The signature length in bytes (the modulus length).
        public var signatureByteCount: Int {
            key.maximumSignatureSize
        }

        /// Signs `message`. PKCS#1 v1.5 is deterministic: the same key and message give the same signature.
        /// - Returns: The signature, exactly `signatureByteCount` bytes.
        public func signature(for message: some Collection<UInt8>) throws -> [UInt8] {
            try withContiguousBytes(of: message) { message in
                try withSignature(for: message) { Array($0) }
            }
        }

        /// Signs `message` and passes the signature to `body` from a temporary buffer.
        func withSignature<R>(for message: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R)
            throws -> R
        {
            try signer.withSignature(for: message, operation: "RS256 signing", body)
        }
    }

    /// An RSA public key. Immutable; safe to share between threads.
    public final class PublicKey: Sendable {
        let key: EVPKey
        private let verifier: SHA256SignatureContext
        /// The key as a JWK: `kty` `RSA`, `n` and `e` (big-endian, minimal, base64url), `alg` `RS256`, `use`
        /// `sig`. Set `kid` on a copy before publishing it.
        public let jwk: JSONWebKey

        init(validated key: EVPKey) {
            guard let n = key.bigNumberParameter("n"), let e = key.bigNumberParameter("e") else {
                preconditionFailure("RSA key without modulus or exponent")
            }
            self.key = key
            self.verifier = SHA256SignatureContext(key: key, purpose: .verify)
            self.jwk = JSONWebKey(
                kty: "RSA",
                n: Base64URL.encode(n),
                e: Base64URL.encode(e),
                alg: RS256.algorithm,
                use: "sig"
            )
        }

        /// Parses a PEM public key (`PUBLIC KEY`, SubjectPublicKeyInfo).
        /// - Throws: `CryptoError` of kind `.invalidKey` when the text is not an RSA public key of an accepted
        ///   size.
        public convenience init(pem: String) throws {
            let operation = "RS256 public key from PEM"
            let key = try EVPKey.publicKey(pem: pem, operation: operation)
            try RS256.requireRSA(key, operation: operation)
            self.init(validated: key)
        }

        /// Builds the key from a JWK with `kty` `RSA`, `n` and `e`. An `alg`, when present, must be `RS256`.
        /// - Throws: `CryptoError` of kind `.invalidKey` for any other JWK, a modulus outside 2048…16384 bits, or
        ///   an exponent that is even, 1, or wider than 64 bits.
        public convenience init(jwk: JSONWebKey) throws {
            let operation = "RS256 public key from JWK"
            func invalid(_ detail: String) -> CryptoError {
                CryptoError(.invalidKey, operation: operation, detail: detail)
            }
            guard jwk.kty == "RSA" else { throw invalid("kty is not RSA") }
            guard jwk.alg == nil || jwk.alg == RS256.algorithm else { throw invalid("alg is not RS256") }
            guard let nText = jwk.n, let n = Base64URL.decode(nText), let eText = jwk.e, let e = Base64URL.decode(eText)
            else {
                throw invalid("n and e must be base64url")
            }
            // Cheap size check before any big-number work: an untrusted JWK must not make us parse megabytes.
            guard n.drop(while: { $0 == 0 }).count <= maximumModulusBits / 8 else {
                throw invalid("modulus wider than \(maximumModulusBits) bits")
            }
            let exponent = e.drop(while: { $0 == 0 })
            guard exponent.count <= 8, let last = exponent.last, last & 1 == 1, exponent.count > 1 || last > 1 else {
                throw invalid("e must be odd, greater than 1 and at most 64 bits")
            }
            let key = try EVPKey.rsaPublicKey(modulus: n, exponent: e, operation: operation)
            try RS256.requireRSA(key, operation: operation)
            self.init(validated: key)
        }

        /// The key as SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`).
        public var pemRepresentation: String {
            key.publicKeyPEM
        }

        /// Whether `signature` is a valid RS256 signature of `message` by this key. Never throws; a signature of
        /// the wrong length is `false`.
        public func isValidSignature(_ signature: [UInt8], for message: some Collection<UInt8>) -> Bool {
            signature.withUnsafeBytes { signature in
                withContiguousBytes(of: message) { message in
                    isValidSignature(signature, for: message)
                }
            }
        }

        func isValidSignature(_ signature: UnsafeRawBufferPointer, for message: UnsafeRawBufferPointer) -> Bool {
            // RFC 8017 §8.2.2: a signature is exactly as long as the modulus.
            guard signature.count == key.maximumSignatureSize else { return false }
            return verifier.isValidSignature(signature, for: message)
        }
    }

    fileprivate static func requireRSA(_ key: EVPKey, operation: String) throws {
        // `isA("RSA")` is false for RSA-PSS keys, whose parameters would forbid PKCS#1 v1.5 anyway.
        guard key.isA("RSA") else {
            throw CryptoError(.invalidKey, operation: operation, detail: "not an RSA key")
        }
        guard (minimumModulusBits...maximumModulusBits).contains(key.bits) else {
            throw CryptoError(
                .invalidKey,
                operation: operation,
                detail: "modulus of \(key.bits) bits is outside \(minimumModulusBits)…\(maximumModulusBits)"
            )
        }
    }
}
