import Foundation
import HearthCrypto
import Testing

@Suite struct JWTVerificationVectorTests {
    let beforeExpiry = RFC7515Examples.expiry - 1

    @Test func verifiesTheRFC7515A3ES256Example() throws {
        let key = try ES256.PublicKey(jwk: RFC7515Examples.es256PublicJWK)
        let verified = try JWT.verify(RFC7515Examples.es256Token, keys: { _ in .es256(key) }, now: beforeExpiry)
        #expect(verified.header == JWTHeader(alg: "ES256"))
        #expect(verified.payload == RFC7515Examples.payload)
        #expect(verified.claims == RegisteredClaims(exp: RFC7515Examples.expiry, iss: "joe"))
    }

    @Test func verifiesTheRFC7515A2RS256Example() throws {
        let key = try RS256.PublicKey(jwk: RFC7515Examples.rs256PublicJWK)
        let verified = try JWT.verify(RFC7515Examples.rs256Token, keys: { _ in .rs256(key) }, now: beforeExpiry)
        #expect(verified.header.alg == "RS256")
        #expect(verified.payload == RFC7515Examples.payload)
        #expect(verified.claims.exp == RFC7515Examples.expiry)
    }

    @Test func signingTheA2InputWithTheA2KeyReproducesTheToken() throws {
        let key = try RS256.PrivateKey(pem: RFC7515Examples.rs256PrivateKeyPEM)
        // The RFC header is exactly {"alg":"RS256"}: no kid, no typ.
        let token = try JWT.sign(payload: RFC7515Examples.payload, key: .rs256(key), keyID: nil, type: nil)
        #expect(token == RFC7515Examples.rs256Token)
    }

    @Test func theExamplesExpireAtTheirExpClaim() throws {
        let key = try ES256.PublicKey(jwk: RFC7515Examples.es256PublicJWK)
        #expect(throws: JWTError.expired) {
            try JWT.verify(RFC7515Examples.es256Token, keys: { _ in .es256(key) }, now: RFC7515Examples.expiry)
        }
        let withLeeway = try JWT.verify(
            RFC7515Examples.es256Token,
            keys: { _ in .es256(key) },
            now: RFC7515Examples.expiry,
            leeway: 1
        )
        #expect(withLeeway.claims.iss == "joe")
    }
}

@Suite struct JWTTests {
    static let ecKey = ES256.PrivateKey.generate()
    static let rsaKey = RS256Tests.sharedKey
    let now: Int64 = 1_700_000_000

    func keys(_ kid: String?) -> JWT.VerificationKey? {
        switch kid {
        case "ec": .es256(Self.ecKey.publicKey)
        case "rsa": .rs256(Self.rsaKey.publicKey)
        default: nil
        }
    }

    func payload(_ json: String) -> [UInt8] { Array(json.utf8) }

    func expectRejection(_ token: String, _ expected: JWTError, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: expected, sourceLocation: sourceLocation) {
            try JWT.verify(token, keys: keys, now: now)
        }
    }

    /// A token with an arbitrary header and signature bytes, for the shapes `JWT.sign` never produces.
    func handMade(header: String, payload: String = #"{"sub":"u"}"#, signature: [UInt8]) -> String {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + "."
            + Base64URL.encode(signature)
    }

    @Test func signedTokensVerifyWithTheirKey() throws {
        for (key, kid) in [(JWT.SigningKey.es256(Self.ecKey), "ec"), (.rs256(Self.rsaKey), "rsa")] {
            let claims = payload(#"{"sub":"user-1","iat":1700000000,"exp":1700003600,"aud":"project"}"#)
            let token = try JWT.sign(payload: claims, key: key, keyID: kid)
            let verified = try JWT.verify(token, keys: keys, now: now)
            #expect(verified.header == JWTHeader(alg: key.algorithm, kid: kid, typ: "JWT"))
            #expect(verified.payload == claims)
            #expect(
                verified.claims
                    == RegisteredClaims(exp: 1_700_003_600, iat: 1_700_000_000, aud: ["project"], sub: "user-1")
            )
        }
    }

    @Test func theHeaderIsWrittenByHandInAFixedOrderWithTheKeyIDEscaped() throws {
        let kid = #"a"b\c/d"# + "\n\u{01}é"
        let token = try JWT.sign(payload: payload("{}"), key: .es256(Self.ecKey), keyID: kid)
        let header = try #require(Base64URL.decode(token.split(separator: ".")[0]))
        #expect(String(decoding: header, as: UTF8.self) == #"{"alg":"ES256","kid":"a\"b\\c/d\n\u0001é","typ":"JWT"}"#)
        let verified = try JWT.verify(token, keys: { $0 == kid ? .es256(Self.ecKey.publicKey) : nil }, now: now)
        #expect(verified.header.kid == kid)

        let bare = try JWT.sign(payload: payload("{}"), key: .es256(Self.ecKey), keyID: nil, type: nil)
        #expect(bare.hasPrefix(RFC7515Examples.es256EncodedHeader + "."))
    }

    @Test func algorithmNoneIsRejected() {
        let unsigned =
            Base64URL.encode(Array(#"{"alg":"none","kid":"ec"}"#.utf8)) + "."
            + Base64URL.encode(Array(#"{"sub":"admin"}"#.utf8)) + "."
        expectRejection(unsigned, .unsupportedAlgorithm)
        expectRejection(handMade(header: #"{"alg":"none","kid":"ec"}"#, signature: [1]), .unsupportedAlgorithm)
    }

    @Test func hs256SignedWithThePublicKeyIsRejected() {
        // The classic confusion attack: HMAC keyed with the verifier's public key material.
        let header = #"{"alg":"HS256","kid":"rsa"}"#
        let signingInput =
            Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(#"{"sub":"admin"}"#.utf8))
        let mac = HMACSHA256.authenticationCode(
            key: Array(Self.rsaKey.publicKey.pemRepresentation.utf8),
            message: Array(signingInput.utf8)
        )
        expectRejection(signingInput + "." + Base64URL.encode(mac), .unsupportedAlgorithm)
        expectRejection(handMade(header: #"{"alg":"ES384","kid":"ec"}"#, signature: [1]), .unsupportedAlgorithm)
        expectRejection(handMade(header: #"{"alg":"es256","kid":"ec"}"#, signature: [1]), .unsupportedAlgorithm)
    }

    @Test func aTokenWhoseAlgorithmDoesNotMatchTheKeyTypeIsRejected() throws {
        // A valid RS256 token whose kid names the EC key, and the reverse.
        let rsaToken = try JWT.sign(payload: payload("{}"), key: .rs256(Self.rsaKey), keyID: "ec")
        expectRejection(rsaToken, .unsupportedAlgorithm)
        let ecToken = try JWT.sign(payload: payload("{}"), key: .es256(Self.ecKey), keyID: "rsa")
        expectRejection(ecToken, .unsupportedAlgorithm)
    }

    @Test func expiryAndNotBeforeAreCheckedAgainstTheGivenTime() throws {
        let token = try JWT.sign(
            payload: payload(#"{"nbf":1699999990,"exp":1700000100}"#),
            key: .es256(Self.ecKey),
            keyID: "ec"
        )
        #expect(try JWT.verify(token, keys: keys, now: 1_699_999_990).claims.nbf == 1_699_999_990)
        #expect(try JWT.verify(token, keys: keys, now: 1_700_000_099).claims.exp == 1_700_000_100)
        #expect(throws: JWTError.expired) { try JWT.verify(token, keys: keys, now: 1_700_000_100) }
        #expect(throws: JWTError.expired) { try JWT.verify(token, keys: keys, now: 1_800_000_000) }
        #expect(throws: JWTError.notYetValid) { try JWT.verify(token, keys: keys, now: 1_699_999_989) }
        // Leeway widens both ends.
        #expect(throws: Never.self) { try JWT.verify(token, keys: keys, now: 1_700_000_104, leeway: 5) }
        #expect(throws: Never.self) { try JWT.verify(token, keys: keys, now: 1_699_999_985, leeway: 5) }
        #expect(throws: JWTError.expired) { try JWT.verify(token, keys: keys, now: 1_700_000_105, leeway: 5) }
        // Extreme times do not overflow.
        #expect(throws: JWTError.expired) { try JWT.verify(token, keys: keys, now: .max, leeway: 1_000) }
        #expect(throws: JWTError.notYetValid) { try JWT.verify(token, keys: keys, now: .min, leeway: 1_000) }
    }

    @Test func fractionalTimesRoundToTheSafeSide() throws {
        let token = try JWT.sign(payload: payload(#"{"nbf":100.2,"exp":200.7}"#), key: .es256(Self.ecKey), keyID: "ec")
        let claims = try JWT.verify(token, keys: keys, now: 150).claims
        #expect(claims.nbf == 101)
        #expect(claims.exp == 200)
        #expect(throws: JWTError.notYetValid) { try JWT.verify(token, keys: keys, now: 100) }
        #expect(throws: JWTError.expired) { try JWT.verify(token, keys: keys, now: 200) }
    }

    @Test func tokensWithoutTimeClaimsNeverExpire() throws {
        let token = try JWT.sign(payload: payload(#"{"sub":"x"}"#), key: .es256(Self.ecKey), keyID: "ec")
        #expect(try JWT.verify(token, keys: keys, now: .max).claims.sub == "x")
    }

    @Test func registeredClaimsOfTheWrongTypeAreMalformed() throws {
        let bad = [
            #"{"exp":"1700000100"}"#, #"{"exp":null}"#, #"{"exp":true}"#, #"{"nbf":[1]}"#, #"{"iat":"now"}"#,
            #"{"exp":1e300}"#, #"{"iss":1}"#, #"{"aud":[1]}"#, #"{"sub":{}}"#, "[]", "not json", "",
        ]
        for json in bad {
            let token = try JWT.sign(payload: payload(json), key: .es256(Self.ecKey), keyID: "ec")
            #expect(throws: JWTError.malformed, "accepted \(json)") { try JWT.verify(token, keys: keys, now: now) }
        }
    }

    @Test func audienceMayBeAStringOrAnArray() throws {
        let single = try JWT.sign(payload: payload(#"{"aud":"a"}"#), key: .es256(Self.ecKey), keyID: "ec")
        let many = try JWT.sign(payload: payload(#"{"aud":["a","b"]}"#), key: .es256(Self.ecKey), keyID: "ec")
        #expect(try JWT.verify(single, keys: keys, now: now).claims.aud == ["a"])
        #expect(try JWT.verify(many, keys: keys, now: now).claims.aud == ["a", "b"])
    }

    @Test func tamperedTokensAreRejected() throws {
        let token = try JWT.sign(
            payload: payload(#"{"sub":"user","admin":false}"#),
            key: .es256(Self.ecKey),
            keyID: "ec"
        )
        let parts = token.split(separator: ".").map(String.init)
        let forgedPayload = Base64URL.encode(Array(#"{"sub":"user","admin":true}"#.utf8))
        expectRejection([parts[0], forgedPayload, parts[2]].joined(separator: "."), .invalidSignature)

        var signature = Base64URL.decode(parts[2])!
        signature[10] ^= 1
        expectRejection([parts[0], parts[1], Base64URL.encode(signature)].joined(separator: "."), .invalidSignature)
        expectRejection(
            [parts[0], parts[1], Base64URL.encode(signature.dropLast())].joined(separator: "."),
            .invalidSignature
        )

        // A different header (here: another kid of the same key) changes the signing input.
        let otherHeader = Base64URL.encode(Array(#"{"alg":"ES256","kid":"ec"}"#.utf8))
        expectRejection([otherHeader, parts[1], parts[2]].joined(separator: "."), .invalidSignature)

        let rsaToken = try JWT.sign(payload: payload("{}"), key: .rs256(Self.rsaKey), keyID: "rsa")
        let rsaParts = rsaToken.split(separator: ".").map(String.init)
        expectRejection([rsaParts[0], forgedPayload, rsaParts[2]].joined(separator: "."), .invalidSignature)
    }

    @Test func unknownKeyIDsAreRejected() throws {
        let token = try JWT.sign(payload: payload("{}"), key: .es256(Self.ecKey), keyID: "retired")
        expectRejection(token, .unknownKey)
        let noKid = try JWT.sign(payload: payload("{}"), key: .es256(Self.ecKey), keyID: nil)
        expectRejection(noKid, .unknownKey)
        // The lookup receives the header's kid verbatim.
        var seen: [String?] = []
        _ = try? JWT.verify(
            token,
            keys: {
                seen.append($0)
                return nil
            },
            now: now
        )
        #expect(seen == ["retired"])
    }

    @Test func tokensWithoutExactlyThreePartsAreMalformed() throws {
        let token = try JWT.sign(payload: payload("{}"), key: .es256(Self.ecKey), keyID: "ec")
        let parts = token.split(separator: ".").map(String.init)
        expectRejection(parts[0] + "." + parts[1], .malformed)
        expectRejection(token + "." + parts[2], .malformed)
        expectRejection(token + ".", .malformed)
        expectRejection(parts[0], .malformed)
        expectRejection("", .malformed)
        expectRejection("..", .malformed)
    }

    @Test func malformedPartsAreRejected() throws {
        let token = try JWT.sign(payload: payload("{}"), key: .es256(Self.ecKey), keyID: "ec")
        let parts = token.split(separator: ".").map(String.init)
        // Padding, foreign alphabet, whitespace.
        expectRejection(parts[0] + "=." + parts[1] + "." + parts[2], .malformed)
        expectRejection(parts[0] + "." + parts[1] + "." + parts[2] + "=", .malformed)
        expectRejection(
            parts[0] + "." + parts[1] + "." + parts[2].replacingOccurrences(of: "-", with: "+") + "+",
            .malformed
        )
        expectRejection(" " + token, .malformed)
        // Headers that are not a JSON object with a string alg.
        expectRejection(handMade(header: "not json", signature: [1]), .malformed)
        expectRejection(handMade(header: #"{"kid":"ec"}"#, signature: [1]), .malformed)
        expectRejection(handMade(header: #"{"alg":256,"kid":"ec"}"#, signature: [1]), .malformed)
        expectRejection(handMade(header: #"["ES256"]"#, signature: [1]), .malformed)
        // Oversized tokens are refused before decoding.
        expectRejection(token + String(repeating: "A", count: JWT.maximumTokenByteCount), .malformed)
    }

    @Test func criticalHeaderExtensionsAreRejected() throws {
        let header = #"{"alg":"ES256","kid":"ec","crit":["exp"],"exp":1}"#
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array("{}".utf8))
        let signature = try Self.ecKey.signature(for: Array(signingInput.utf8))
        expectRejection(signingInput + "." + Base64URL.encode(signature), .malformed)
    }

    @Test func callersDecodeTheirOwnClaims() throws {
        struct FirebaseClaims: Decodable, Equatable {
            var sub: String
            var firebase: Firebase
            struct Firebase: Decodable, Equatable {
                var sign_in_provider: String
            }
        }
        let token = try JWT.sign(
            payload: payload(#"{"sub":"u1","firebase":{"sign_in_provider":"password"}}"#),
            key: .es256(Self.ecKey),
            keyID: "ec"
        )
        let claims = try JWT.verify(token, keys: keys, now: now).decodeClaims(FirebaseClaims.self)
        #expect(claims == FirebaseClaims(sub: "u1", firebase: .init(sign_in_provider: "password")))
    }

    @Test func errorsDescribeThemselves() {
        let all: [JWTError] = [
            .malformed, .unsupportedAlgorithm, .unknownKey, .invalidSignature, .expired, .notYetValid,
        ]
        #expect(Set(all.map(\.description)).count == all.count)
    }
}
