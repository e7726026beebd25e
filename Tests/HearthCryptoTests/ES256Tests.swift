import HearthCrypto
import Testing

@Suite struct ES256Tests {
    /// About 1 in 128 signatures has an r or s shorter than 32 bytes, the case that breaks implementations which
    /// forget to left-pad (≈ 780 of them in 100,000). The run takes about 14 s in a debug build on the 2-core CI
    /// box when run alone (≈ 145 µs per sign + verify; OpenSSL does most of the work).
    static let roundTrips = 100_000

    @Test func hundredThousandSignVerifyRoundTripsIncludingShortScalars() throws {
        let (verified, shortScalars) = try Self.roundTrip(count: Self.roundTrips)
        #expect(verified == Self.roundTrips)
        // Expected ≈ 2 · count / 256; far fewer would mean the padding path was hardly exercised.
        #expect(shortScalars > 400)
    }

    /// Signs and verifies `count` distinct messages with one key; returns how many verified and how many
    /// signatures had an r or s with a leading zero byte.
    static func roundTrip(count: Int) throws -> (verified: Int, shortScalars: Int) {
        let key = ES256.PrivateKey.generate()
        let publicKey = key.publicKey
        var verified = 0
        var shortScalars = 0
        var message = [UInt8](repeating: 0, count: 16)
        for index in 0..<count {
            withUnsafeBytes(of: UInt64(index)) { message.replaceSubrange(0..<8, with: $0) }
            let signature = try key.signature(for: message)
            if signature.count == 64 && publicKey.isValidSignature(signature, for: message) {
                verified += 1
            }
            if signature[0] == 0 || signature[32] == 0 {
                shortScalars += 1
            }
        }
        return (verified, shortScalars)
    }

    @Test func tamperedMessagesAndSignaturesFail() throws {
        let key = ES256.PrivateKey.generate()
        let message = Array("transfer 10 coins".utf8)
        let signature = try key.signature(for: message)
        #expect(!key.publicKey.isValidSignature(signature, for: Array("transfer 99 coins".utf8)))
        for index in [0, 31, 32, 63] {
            var tampered = signature
            tampered[index] ^= 0x80
            #expect(!key.publicKey.isValidSignature(tampered, for: message))
        }
        let otherKey = ES256.PrivateKey.generate()
        #expect(!otherKey.publicKey.isValidSignature(signature, for: message))
    }

    @Test func wrongLengthSignaturesAreFalseNotErrors() throws {
        let key = ES256.PrivateKey.generate()
        let message = Array("m".utf8)
        let signature = try key.signature(for: message)
        for bad in [[], Array(signature.dropLast()), signature + [0], signature + signature] {
            #expect(!key.publicKey.isValidSignature(bad, for: message))
        }
    }

    @Test func outOfRangeScalarsAreRejected() throws {
        let key = ES256.PrivateKey.generate()
        let message = Array("m".utf8)
        let signature = try key.signature(for: message)
        let zero = [UInt8](repeating: 0, count: 32)
        let order = [UInt8](hex: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        let allOnes = [UInt8](repeating: 0xFF, count: 32)
        let r = Array(signature[0..<32])
        let s = Array(signature[32..<64])
        for bad in [zero + s, r + zero, order + s, r + order, allOnes + s, r + allOnes] {
            #expect(!key.publicKey.isValidSignature(bad, for: message))
        }
    }

    @Test func signsEmptyAndNonContiguousMessages() throws {
        let key = ES256.PrivateKey.generate()
        let empty = try key.signature(for: [UInt8]())
        #expect(key.publicKey.isValidSignature(empty, for: [UInt8]()))
        let lazy = Array("abc".utf8).lazy.map { $0 }
        let signature = try key.signature(for: lazy)
        #expect(key.publicKey.isValidSignature(signature, for: "abc".utf8))
    }

    @Test func pemRoundTripsKeepTheKey() throws {
        let key = ES256.PrivateKey.generate()
        let pem = key.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let reloaded = try ES256.PrivateKey(pem: pem)
        #expect(reloaded.publicKey.jwk == key.publicKey.jwk)

        let publicPEM = key.publicKey.pemRepresentation
        #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        let publicKey = try ES256.PublicKey(pem: publicPEM)
        let message = Array("pem".utf8)
        #expect(publicKey.isValidSignature(try reloaded.signature(for: message), for: message))
    }

    @Test func theRFC7515PrivateKeyHasThePublishedPublicKey() throws {
        let key = try ES256.PrivateKey(pem: RFC7515Examples.es256PrivateKeyPEM)
        #expect(key.publicKey.jwk.x == RFC7515Examples.es256PublicJWK.x)
        #expect(key.publicKey.jwk.y == RFC7515Examples.es256PublicJWK.y)
    }

    @Test func jwkHasTheP256Shape() throws {
        let jwk = ES256.PrivateKey.generate().publicKey.jwk
        #expect(jwk.kty == "EC")
        #expect(jwk.crv == "P-256")
        #expect(jwk.alg == "ES256")
        #expect(jwk.use == "sig")
        #expect(Base64URL.decode(jwk.x!)?.count == 32)
        #expect(Base64URL.decode(jwk.y!)?.count == 32)
        #expect(jwk.n == nil && jwk.e == nil && jwk.kid == nil)
    }

    @Test func jwksThatAreNotP256PublicKeysAreRejected() throws {
        let good = ES256.PrivateKey.generate().publicKey.jwk
        var offCurve = good
        var y = Base64URL.decode(good.y!)!
        y[31] ^= 0x01
        offCurve.y = Base64URL.encode(y)
        var wrongCurve = good
        wrongCurve.crv = "P-384"
        var wrongType = good
        wrongType.kty = "RSA"
        var wrongAlgorithm = good
        wrongAlgorithm.alg = "RS256"
        var shortX = good
        shortX.x = Base64URL.encode(Base64URL.decode(good.x!)!.dropFirst())
        var missingY = good
        missingY.y = nil
        var notBase64 = good
        notBase64.x = "not base64url!"
        for jwk in [offCurve, wrongCurve, wrongType, wrongAlgorithm, shortX, missingY, notBase64] {
            #expect(throws: CryptoError.self, "accepted \(jwk)") { try ES256.PublicKey(jwk: jwk) }
        }
    }

    @Test func pemThatIsNotAP256KeyIsRejected() throws {
        let rsaPEM = RFC7515Examples.rs256PrivateKeyPEM
        let publicPEM = ES256.PrivateKey.generate().publicKey.pemRepresentation
        for pem in [rsaPEM, publicPEM, "", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "junk"] {
            do {
                _ = try ES256.PrivateKey(pem: pem)
                Issue.record("accepted a non-P-256 private key")
            } catch let error as CryptoError {
                #expect(error.kind == .invalidKey)
            }
        }
        #expect(throws: CryptoError.self) {
            try ES256.PublicKey(pem: RS256.PrivateKey(pem: rsaPEM).publicKey.pemRepresentation)
        }
    }
}
