import Foundation
import HearthCrypto
import Testing

@Suite struct JSONWebKeyTests {
    @Test func exportedJWKsImportIntoKeysThatVerifyTheOriginalsSignatures() throws {
        let message = Array("jwk round trip".utf8)

        let ecKey = ES256.PrivateKey.generate()
        let ecDecoded = try JSONDecoder().decode(JSONWebKey.self, from: Data(ecKey.publicKey.jwk.jsonRepresentation))
        let ecImported = try ES256.PublicKey(jwk: ecDecoded)
        #expect(ecImported.isValidSignature(try ecKey.signature(for: message), for: message))
        #expect(ecImported.jwk == ecKey.publicKey.jwk)
        #expect(ecImported.pemRepresentation == ecKey.publicKey.pemRepresentation)

        let rsaKey = RS256Tests.sharedKey
        let rsaDecoded = try JSONDecoder().decode(JSONWebKey.self, from: Data(rsaKey.publicKey.jwk.jsonRepresentation))
        let rsaImported = try RS256.PublicKey(jwk: rsaDecoded)
        #expect(rsaImported.isValidSignature(try rsaKey.signature(for: message), for: message))
        #expect(rsaImported.jwk == rsaKey.publicKey.jwk)
        #expect(rsaImported.pemRepresentation == rsaKey.publicKey.pemRepresentation)
    }

    @Test func jsonRepresentationMatchesJSONEncoderWithSortedKeys() throws {
        var ec = ES256.PrivateKey.generate().publicKey.jwk
        ec.kid = #"key "1" / \ é"#
        var rsa = RS256Tests.sharedKey.publicKey.jwk
        rsa.kid = "rsa-1"
        let set = JSONWebKeySet(keys: [ec, rsa])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(ec.jsonRepresentation == Array(try encoder.encode(ec)))
        #expect(set.jsonRepresentation == Array(try encoder.encode(set)))
        #expect(try JSONDecoder().decode(JSONWebKeySet.self, from: Data(set.jsonRepresentation)) == set)
    }

    @Test func jsonRepresentationIsExactAndOmitsAbsentMembers() {
        let jwk = JSONWebKey(kty: "EC", crv: "P-256", x: "AA", y: "AQ", kid: "k1", alg: "ES256", use: "sig")
        let expected = #"{"alg":"ES256","crv":"P-256","kid":"k1","kty":"EC","use":"sig","x":"AA","y":"AQ"}"#
        #expect(String(decoding: jwk.jsonRepresentation, as: UTF8.self) == expected)
        #expect(String(decoding: JSONWebKeySet(keys: []).jsonRepresentation, as: UTF8.self) == #"{"keys":[]}"#)
    }

    @Test func decodingAPrivateJWKKeepsOnlyThePublicMembers() throws {
        let json =
            #"{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","#
            + #""y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","d":"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}"#
        let jwk = try JSONDecoder().decode(JSONWebKey.self, from: Data(json.utf8))
        #expect(jwk == RFC7515Examples.es256PublicJWK)
        #expect(!String(decoding: jwk.jsonRepresentation, as: UTF8.self).contains("\"d\""))
    }

    @Test func keySetsFindKeysByID() {
        let set = JSONWebKeySet(keys: [JSONWebKey(kty: "EC", kid: "a"), JSONWebKey(kty: "RSA", kid: "b")])
        #expect(set.key(withID: "b")?.kty == "RSA")
        #expect(set.key(withID: "c") == nil)
    }

    @Test func verificationKeysAreBuiltByKeyType() throws {
        guard case .es256 = try JWT.VerificationKey(jwk: RFC7515Examples.es256PublicJWK) else {
            Issue.record("EC JWK did not give an ES256 key")
            return
        }
        guard case .rs256 = try JWT.VerificationKey(jwk: RFC7515Examples.rs256PublicJWK) else {
            Issue.record("RSA JWK did not give an RS256 key")
            return
        }
        #expect(throws: CryptoError.self) { try JWT.VerificationKey(jwk: JSONWebKey(kty: "oct")) }
    }
}
