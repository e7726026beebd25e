/// Why a token was refused by `JWT.verify`. Deliberately coarse: the detail an attacker would like to learn
/// stays on the server, and every case maps to one HTTP 401 at the edge.
public enum JWTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not three base64url parts, a header or payload that is not a JSON object, a registered claim of the
    /// wrong type, or an unsupported `crit` header.
    case malformed
    /// `alg` is not ES256 or RS256 (`none` and `HS256` included), or it does not match the type of the key
    /// found for the token's `kid` (the algorithm-confusion attack).
    case unsupportedAlgorithm
    /// No verification key for the token's `kid`.
    case unknownKey
    /// The signature does not verify.
    case invalidSignature
    /// `exp` is not after now (minus the leeway).
    case expired
    /// `nbf` is after now (plus the leeway).
    case notYetValid

    public var description: String {
        switch self {
        case .malformed: "malformed token"
        case .unsupportedAlgorithm: "unsupported algorithm, or algorithm does not match the key"
        case .unknownKey: "no key for the token's key ID"
        case .invalidSignature: "invalid signature"
        case .expired: "token expired"
        case .notYetValid: "token not yet valid"
        }
    }
}
