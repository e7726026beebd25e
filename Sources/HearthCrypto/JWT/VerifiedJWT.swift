import FoundationEssentials

/// A token whose signature, algorithm and validity window `JWT.verify` has checked.
public struct VerifiedJWT: Sendable {
    /// The JOSE header.
    public let header: JWTHeader
    /// The payload exactly as signed: raw JSON bytes.
    public let payload: [UInt8]
    /// The registered claims parsed from the payload.
    public let claims: RegisteredClaims

    /// Decodes the payload into the caller's own claims type.
    public func decodeClaims<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JWT.jsonDecoder.decode(type, from: Data(payload))
    }
}
