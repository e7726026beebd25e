/// The registered claims of RFC 7519 §4.1 that verification and callers commonly need. All are optional;
/// `JWT.verify` checks `exp` and `nbf`, the caller checks `iss`, `aud` and `sub` against its own policy.
///
/// Times are NumericDate values in whole seconds since the Unix epoch. A fractional value is rounded to the
/// safe side: `exp` and `iat` down, `nbf` up.
public struct RegisteredClaims: Sendable, Hashable {
    /// Expiration time.
    public var exp: Int64?
    /// Not before.
    public var nbf: Int64?
    /// Issued at.
    public var iat: Int64?
    /// Issuer.
    public var iss: String?
    /// Audience; a single string in the token becomes a one-element array.
    public var aud: [String]?
    /// Subject.
    public var sub: String?

    public init(
        exp: Int64? = nil,
        nbf: Int64? = nil,
        iat: Int64? = nil,
        iss: String? = nil,
        aud: [String]? = nil,
        sub: String? = nil
    ) {
        self.exp = exp
        self.nbf = nbf
        self.iat = iat
        self.iss = iss
        self.aud = aud
        self.sub = sub
    }
}

extension RegisteredClaims: Decodable {
    private enum CodingKeys: String, CodingKey {
        case exp, nbf, iat, iss, aud, sub
    }

    private enum Rounding {
        case down, up
    }

    /// Beyond this many seconds (about 31 million years) a time is treated as malformed, which also keeps the
    /// conversion to `Int64` exact.
    private static let largestSeconds = 1e15

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        exp = try Self.numericDate(container, .exp, rounding: .down)
        nbf = try Self.numericDate(container, .nbf, rounding: .up)
        iat = try Self.numericDate(container, .iat, rounding: .down)
        iss = try container.decodeIfPresent(String.self, forKey: .iss)
        sub = try container.decodeIfPresent(String.self, forKey: .sub)
        if container.contains(.aud) {
            if let single = try? container.decode(String.self, forKey: .aud) {
                aud = [single]
            } else {
                aud = try container.decode([String].self, forKey: .aud)
            }
        }
    }

    /// A present claim must be a finite number (`null` included in "not a number").
    private static func numericDate(
        _ container: KeyedDecodingContainer<CodingKeys>,
        _ key: CodingKeys,
        rounding: Rounding
    ) throws -> Int64? {
        guard container.contains(key) else { return nil }
        let seconds = try container.decode(Double.self, forKey: key)
        guard seconds.isFinite, abs(seconds) < largestSeconds else {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: container,
                debugDescription: "NumericDate out of range"
            )
        }
        return Int64(rounding == .down ? seconds.rounded(.down) : seconds.rounded(.up))
    }
}
