import FoundationEssentials

extension JWT {
    /// Verifies a compact token and returns its header, payload and registered claims.
    ///
    /// In order: exactly three base64url parts (unpadded); the header is a JSON object with no `crit`; `alg`
    /// is ES256 or RS256; `keys` returns a key for the header's `kid`; that key's type matches `alg` (so an
    /// RS256 token is never checked against an EC key or vice versa, and `none`/`HS256` never get this far);
    /// the signature verifies; only then is the payload parsed, `exp` (when present) must be after
    /// `now - leeway` and `nbf` (when present) must not be after `now + leeway`.
    ///
    /// - Parameters:
    ///   - token: The compact serialisation `header.payload.signature`.
    ///   - keys: Looks up the verification key for the header's `kid` (`nil` when the header has none).
    ///   - now: The current time in seconds since the Unix epoch, from the caller's injected `Clock`.
    ///   - leeway: Seconds of clock skew tolerated on `exp` and `nbf`; must not be negative.
    public static func verify(
        _ token: String,
        keys: (String?) -> VerificationKey?,
        now: Int64,
        leeway: Int64 = 0
    ) throws(JWTError) -> VerifiedJWT {
        precondition(leeway >= 0, "JWT leeway must not be negative")
        var token = token
        let result = token.withUTF8 { utf8 in
            Result { () throws(JWTError) -> VerifiedJWT in
                try verify(utf8: utf8, keys: keys, now: now, leeway: leeway)
            }
        }
        return try result.get()
    }

    private enum Algorithm {
        case es256, rs256
    }

    private static func verify(
        utf8 token: UnsafeBufferPointer<UInt8>,
        keys: (String?) -> VerificationKey?,
        now: Int64,
        leeway: Int64
    ) throws(JWTError) -> VerifiedJWT {
        guard token.count <= maximumTokenByteCount else { throw .malformed }
        let dot = UInt8(ascii: ".")
        guard let firstDot = token.firstIndex(of: dot),
            let secondDot = token[(firstDot + 1)...].firstIndex(of: dot),
            !token[(secondDot + 1)...].contains(dot)
        else {
            throw .malformed
        }
        let headerPart = UnsafeBufferPointer(rebasing: token[..<firstDot])
        let payloadPart = UnsafeBufferPointer(rebasing: token[(firstDot + 1)..<secondDot])
        let signaturePart = UnsafeBufferPointer(rebasing: token[(secondDot + 1)...])

        guard let headerJSON = Base64URL.decodeUnpadded(headerPart),
            let header = try? jsonDecoder.decode(DecodedJWTHeader.self, from: Data(headerJSON)),
            header.crit == nil
        else {
            throw .malformed
        }
        let algorithm: Algorithm
        switch header.alg {
        case ES256.algorithm: algorithm = .es256
        case RS256.algorithm: algorithm = .rs256
        default: throw .unsupportedAlgorithm
        }
        guard let key = keys(header.kid) else { throw .unknownKey }
        guard let signature = Base64URL.decodeUnpadded(signaturePart) else { throw .malformed }

        let signingInput = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: token[..<secondDot]))
        let isValid =
            switch (algorithm, key) {
            case (.es256, .es256(let key)):
                signature.withUnsafeBytes { key.isValidSignature($0, for: signingInput) }
            case (.rs256, .rs256(let key)):
                signature.withUnsafeBytes { key.isValidSignature($0, for: signingInput) }
            case (.es256, .rs256), (.rs256, .es256):
                throw JWTError.unsupportedAlgorithm
            }
        guard isValid else { throw .invalidSignature }

        guard let payload = Base64URL.decodeUnpadded(payloadPart),
            let claims = try? jsonDecoder.decode(RegisteredClaims.self, from: Data(payload))
        else {
            throw .malformed
        }
        if let expiry = claims.exp, expiry <= now.subtractingSaturated(leeway) {
            throw .expired
        }
        if let notBefore = claims.nbf, notBefore > now.addingSaturated(leeway) {
            throw .notYetValid
        }
        return VerifiedJWT(
            header: JWTHeader(alg: header.alg, kid: header.kid, typ: header.typ),
            payload: payload,
            claims: claims
        )
    }
}

extension Int64 {
    fileprivate func addingSaturated(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    fileprivate func subtractingSaturated(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other > 0 ? .min : .max) : difference
    }
}
