/// A public JSON Web Key (RFC 7517) for the two key types Hearth signs with: EC P-256 (`kty` `EC`) and RSA
/// (`kty` `RSA`).
///
/// Private members (`d`, `p`, `q`, …) are deliberately absent: decoding a private JWK keeps only its public
/// half, so a key set can never leak private material by being re-encoded.
public struct JSONWebKey: Codable, Sendable, Hashable {
    /// Key type: `"EC"` or `"RSA"`.
    public var kty: String
    /// Curve for EC keys: `"P-256"`.
    public var crv: String?
    /// EC x coordinate, base64url, 32 bytes for P-256.
    public var x: String?
    /// EC y coordinate, base64url, 32 bytes for P-256.
    public var y: String?
    /// RSA modulus, base64url, big-endian, no leading zero bytes.
    public var n: String?
    /// RSA public exponent, base64url, big-endian, no leading zero bytes.
    public var e: String?
    /// Key ID, matched against a JWT header's `kid`.
    public var kid: String?
    /// The algorithm the key is meant for: `"ES256"` or `"RS256"`.
    public var alg: String?
    /// Intended use: `"sig"` for signature keys.
    public var use: String?

    public init(
        kty: String,
        crv: String? = nil,
        x: String? = nil,
        y: String? = nil,
        n: String? = nil,
        e: String? = nil,
        kid: String? = nil,
        alg: String? = nil,
        use: String? = nil
    ) {
        self.kty = kty
        self.crv = crv
        self.x = x
        self.y = y
        self.n = n
        self.e = e
        self.kid = kid
        self.alg = alg
        self.use = use
    }

    /// Compact JSON with the members in sorted order and absent members omitted: byte for byte what
    /// `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` writes, without its cost.
    public var jsonRepresentation: [UInt8] {
        var writer = JSONObjectWriter(capacity: 160 + (n?.utf8.count ?? 0))
        writer.member("alg", alg)
        writer.member("crv", crv)
        writer.member("e", e)
        writer.member("kid", kid)
        writer.member("kty", kty)
        writer.member("n", n)
        writer.member("use", use)
        writer.member("x", x)
        writer.member("y", y)
        return writer.finish()
    }
}

/// A JSON Web Key Set (RFC 7517 §5), as served from a `jwks` endpoint.
public struct JSONWebKeySet: Codable, Sendable, Hashable {
    public var keys: [JSONWebKey]

    public init(keys: [JSONWebKey]) {
        self.keys = keys
    }

    /// The first key whose `kid` is `keyID`.
    public func key(withID keyID: String) -> JSONWebKey? {
        keys.first { $0.kid == keyID }
    }

    /// Compact JSON `{"keys":[…]}` with each key as in `JSONWebKey.jsonRepresentation`.
    public var jsonRepresentation: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(16 + keys.count * 200)
        output.append(contentsOf: #"{"keys":["#.utf8)
        for (index, key) in keys.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: key.jsonRepresentation)
        }
        output.append(contentsOf: "]}".utf8)
        return output
    }
}
