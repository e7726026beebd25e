import FoundationEssentials

/// JSON Web Tokens in the JWS compact serialisation (RFC 7515, RFC 7519), signed with ES256 or RS256.
public enum JWT {
    /// A private key that signs tokens.
    public enum SigningKey: Sendable {
        case es256(ES256.PrivateKey)
        case rs256(RS256.PrivateKey)

        /// The JWS `alg` this key signs with.
        public var algorithm: String {
            switch self {
            case .es256: ES256.algorithm
            case .rs256: RS256.algorithm
            }
        }

        /// The matching verification key.
        public var verificationKey: VerificationKey {
            switch self {
            case .es256(let key): .es256(key.publicKey)
            case .rs256(let key): .rs256(key.publicKey)
            }
        }

        var signatureByteCount: Int {
            switch self {
            case .es256: ECDSASignature.rawByteCount
            case .rs256(let key): key.signatureByteCount
            }
        }

        func withSignature<R>(for message: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R)
            throws -> R
        {
            switch self {
            case .es256(let key): try key.withSignature(for: message, body)
            case .rs256(let key): try key.withSignature(for: message, body)
            }
        }
    }

    /// A public key that verifies tokens. Its type fixes the one algorithm it accepts.
    public enum VerificationKey: Sendable {
        case es256(ES256.PublicKey)
        case rs256(RS256.PublicKey)

        /// Builds the key a JWK describes, choosing the type by `kty` (`EC` → ES256, `RS` → RS256).
        /// - Throws: `CryptoError` of kind `.invalidKey` for an unsupported or invalid JWK.
        public init(jwk: JSONWebKey) throws {
            switch jwk.kty {
            case "EC": self = .es256(try ES256.PublicKey(jwk: jwk))
            case "RSA": self = .rs256(try RS256.PublicKey(jwk: jwk))
            default:
                throw CryptoError(.invalidKey, operation: "JWT verification key from JWK", detail: "unsupported kty")
            }
        }

        /// The key as a JWK (without `kid`).
        public var jwk: JSONWebKey {
            switch self {
            case .es256(let key): key.jwk
            case .rs256(let key): key.jwk
            }
        }
    }

    /// Tokens longer than this are refused before any decoding, so a hostile header cannot make verification
    /// allocate or parse without bound. Real tokens are far smaller (Firebase ID tokens: ~1 KB).
    public static let maximumTokenByteCount = 64 * 1024

    /// Shared by every verification; `JSONDecoder` is safe to use from several threads.
    static let jsonDecoder = JSONDecoder()

    /// Signs a payload and returns the compact token `header.payload.signature`.
    ///
    /// The header is `{"alg":…,"kid":…,"typ":…}` in that order, with `kid` and `typ` left out when `nil`. The
    /// payload is used exactly as given, so the caller serialises the claims (and decides their order).
    /// Everything is written into the token's own storage: one allocation for the header JSON, one for the
    /// token.
    /// - Throws: `CryptoError` if OpenSSL fails to sign (it should not with a valid key).
    public static func sign(
        payload: [UInt8],
        key: SigningKey,
        keyID: String?,
        type: String? = "JWT"
    ) throws -> String {
        var headerWriter = JSONObjectWriter(capacity: 48 + (keyID?.utf8.count ?? 0) + (type?.utf8.count ?? 0))
        headerWriter.member("alg", key.algorithm)
        headerWriter.member("kid", keyID)
        headerWriter.member("typ", type)
        let header = headerWriter.finish()

        let headerLength = Base64Codec.encodedLength(of: header.count, padded: false)
        let payloadLength = Base64Codec.encodedLength(of: payload.count, padded: false)
        let signatureLength = Base64Codec.encodedLength(of: key.signatureByteCount, padded: false)
        let total = headerLength + 1 + payloadLength + 1 + signatureLength

        return try String(unsafeUninitializedCapacity: total) { buffer in
            let output = UnsafeMutableRawBufferPointer(buffer)
            var offset = header.withUnsafeBytes {
                Base64Codec.encode($0, into: output, alphabet: .url, padded: false)
            }
            output[offset] = UInt8(ascii: ".")
            offset += 1
            offset += payload.withUnsafeBytes {
                Base64Codec.encode(
                    $0,
                    into: UnsafeMutableRawBufferPointer(rebasing: output[offset...]),
                    alphabet: .url,
                    padded: false
                )
            }
            let signingInput = UnsafeRawBufferPointer(rebasing: output[0..<offset])
            try key.withSignature(for: signingInput) { signature in
                precondition(signature.count == key.signatureByteCount, "unexpected signature length")
                output[offset] = UInt8(ascii: ".")
                offset += 1
                offset += Base64Codec.encode(
                    signature,
                    into: UnsafeMutableRawBufferPointer(rebasing: output[offset...]),
                    alphabet: .url,
                    padded: false
                )
            }
            precondition(offset == total)
            return total
        }
    }
}
