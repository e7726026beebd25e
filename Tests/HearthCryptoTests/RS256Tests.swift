import HearthCrypto
import Testing

@Suite struct RS256Tests {
    /// One 2048-bit key shared by the tests that only need some key (generation takes ~100 ms).
    static let sharedKey = RS256.PrivateKey.generate()

    @Test func reproducesTheRFC7515A2SignatureExactly() throws {
        let key = try RS256.PrivateKey(pem: RFC7515Examples.rs256PrivateKeyPEM)
        let signingInput = Array((RFC7515Examples.rs256EncodedHeader + "." + RFC7515Examples.encodedPayload).utf8)
        let signature = try key.signature(for: signingInput)
        #expect(Base64URL.encode(signature) == RFC7515Examples.rs256EncodedSignature)
    }

    @Test func theRFC7515PrivateKeyHasThePublishedPublicKey() throws {
        let key = try RS256.PrivateKey(pem: RFC7515Examples.rs256PrivateKeyPEM)
        #expect(key.publicKey.jwk.n == RFC7515Examples.rs256PublicJWK.n)
        #expect(key.publicKey.jwk.e == RFC7515Examples.rs256PublicJWK.e)
        #expect(key.signatureByteCount == 256)
    }

    @Test func verifiesTheRFC7515A2SignatureWithThePublishedJWK() throws {
        let publicKey = try RS256.PublicKey(jwk: RFC7515Examples.rs256PublicJWK)
        let signingInput = Array((RFC7515Examples.rs256EncodedHeader + "." + RFC7515Examples.encodedPayload).utf8)
        let signature = try #require(Base64URL.decode(RFC7515Examples.rs256EncodedSignature))
        #expect(publicKey.isValidSignature(signature, for: signingInput))
        var tampered = signature
        tampered[100] ^= 0x01
        #expect(!publicKey.isValidSignature(tampered, for: signingInput))
        #expect(!publicKey.isValidSignature(signature, for: signingInput.dropLast()))
        #expect(!publicKey.isValidSignature(Array(signature.dropFirst()), for: signingInput))
        #expect(!publicKey.isValidSignature([0] + signature, for: signingInput))
        #expect(!publicKey.isValidSignature([], for: signingInput))
    }

    @Test func generatedKeysSignAndVerify() throws {
        let key = Self.sharedKey
        #expect(key.signatureByteCount == 256)
        let message = Array("rs256".utf8)
        let signature = try key.signature(for: message)
        #expect(signature.count == 256)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        // PKCS#1 v1.5 is deterministic.
        #expect(try key.signature(for: message) == signature)
        #expect(!RS256.PrivateKey.generate().publicKey.isValidSignature(signature, for: message))
    }

    @Test func pemRoundTripsKeepTheKey() throws {
        let key = Self.sharedKey
        #expect(key.pemRepresentation.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let reloaded = try RS256.PrivateKey(pem: key.pemRepresentation)
        #expect(reloaded.publicKey.jwk == key.publicKey.jwk)
        let publicKey = try RS256.PublicKey(pem: key.publicKey.pemRepresentation)
        #expect(publicKey.jwk == key.publicKey.jwk)
    }

    @Test func jwkHasMinimalBigEndianMembers() throws {
        let jwk = Self.sharedKey.publicKey.jwk
        #expect(jwk.kty == "RSA" && jwk.alg == "RS256" && jwk.use == "sig")
        #expect(jwk.e == "AQAB")
        let modulus = try #require(Base64URL.decode(jwk.n!))
        #expect(modulus.count == 256)
        #expect(modulus[0] != 0)
    }

    @Test func unacceptableJWKsAreRejected() throws {
        let good = RFC7515Examples.rs256PublicJWK
        var evenExponent = good
        evenExponent.e = Base64URL.encode([0x01, 0x00, 0x00])
        var exponentOne = good
        exponentOne.e = "AQ"
        var wideExponent = good
        wideExponent.e = Base64URL.encode([UInt8](repeating: 0xFF, count: 9))
        var shortModulus = good
        shortModulus.n = Base64URL.encode(Base64URL.decode(good.n!)!.prefix(128))  // 1024 bits
        var hugeModulus = good
        hugeModulus.n = Base64URL.encode([UInt8](repeating: 0xFF, count: 4096))
        var wrongType = good
        wrongType.kty = "EC"
        var wrongAlgorithm = good
        wrongAlgorithm.alg = "ES256"
        var missingModulus = good
        missingModulus.n = nil
        for jwk in [
            evenExponent, exponentOne, wideExponent, shortModulus, hugeModulus, wrongType, wrongAlgorithm,
            missingModulus,
        ] {
            #expect(throws: CryptoError.self, "accepted \(jwk)") { try RS256.PublicKey(jwk: jwk) }
        }
    }

    @Test func keysSmallerThan2048BitsAreRejected() throws {
        let tool = try OpenSSLTool()
        defer { tool.remove() }
        let result = try tool.run([
            "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", "small.pem",
        ])
        #expect(result.status == 0, "\(result.output)")
        let pem = String(decoding: try tool.read("small.pem"), as: UTF8.self)
        do {
            _ = try RS256.PrivateKey(pem: pem)
            Issue.record("accepted a 1024-bit key")
        } catch let error as CryptoError {
            #expect(error.kind == .invalidKey)
        }
        #expect(throws: CryptoError.self) { try RS256.PrivateKey(pem: RFC7515Examples.es256PrivateKeyPEM) }
    }
}
