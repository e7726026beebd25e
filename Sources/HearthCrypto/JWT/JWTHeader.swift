/// The members of a verified token's JOSE header that Hearth uses.
public struct JWTHeader: Sendable, Hashable {
    /// The signature algorithm: `"ES256"` or `"RS256"` once verified.
    public var alg: String
    /// The key ID the token names, if any.
    public var kid: String?
    /// The media type, usually `"JWT"`.
    public var typ: String?

    public init(alg: String, kid: String? = nil, typ: String? = nil) {
        self.alg = alg
        self.kid = kid
        self.typ = typ
    }
}

/// The header as decoded from the wire, including `crit`, which is checked and then dropped.
struct DecodedJWTHeader: Decodable {
    var alg: String
    var kid: String?
    var typ: String?
    /// RFC 7515 §4.1.11: extensions the recipient must understand. Hearth understands none.
    var crit: [String]?
}
