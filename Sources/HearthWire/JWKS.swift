/// A JSON Web Key (RFC 7517) as Hearth publishes them: RSA (`n`, `e`) or EC P-256 (`x`, `y`).
public struct JWK: Sendable, Codable, Equatable {
    public var kty: String
    public var kid: String?
    public var alg: String?
    public var use: String?
    public var n: String?
    public var e: String?
    public var crv: String?
    public var x: String?
    public var y: String?
    public init(
        kty: String,
        kid: String?,
        alg: String? = nil,
        use: String? = nil,
        n: String? = nil,
        e: String? = nil,
        crv: String? = nil,
        x: String? = nil,
        y: String? = nil
    ) {
        self.kty = kty
        self.kid = kid
        self.alg = alg
        self.use = use
        self.n = n
        self.e = e
        self.crv = crv
        self.x = x
        self.y = y
    }
}

/// A JWKS document: `{"keys":[…]}`.
public struct JWKSet: Sendable, Codable, Equatable {
    public var keys: [JWK]
    public init(keys: [JWK]) { self.keys = keys }

    /// The key with `kid`, if any.
    public func key(id: String) -> JWK? { keys.first { $0.kid == id } }
}

/// Paths of the published key documents.
public enum KeyDocumentPath {
    /// ID-token keys as JWKS.
    public static let idTokenJWKS = "/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"
    /// ID-token keys as kid → PEM certificate.
    public static let idTokenX509 = "/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
}
