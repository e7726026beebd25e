import HearthCrypto
import Testing

/// Checks our keys and signatures against the `openssl` command-line tool in both directions.
@Suite struct OpenSSLCrossCheckTests {
    let message = SecureRandom.bytes(count: 200)

    @Test func opensslVerifiesOurES256Signatures() throws {
        let tool = try OpenSSLTool()
        defer { tool.remove() }
        let key = ES256.PrivateKey.generate()
        try tool.write(key.publicKey.pemRepresentation, to: "pub.pem")
        try tool.write(message, to: "msg.bin")
        // Several signatures, so that a short r or s has a fair chance to appear among them.
        for _ in 0..<8 {
            let raw = try key.signature(for: message)
            try tool.write(TestDER.ecdsaSignature(fromRaw: raw), to: "sig.der")
            let result = try tool.run(["dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.der", "msg.bin"])
            #expect(result.status == 0 && result.output.contains("Verified OK"), "\(result.output)")
        }
        // And a negative control: a different message must not verify.
        try tool.write(message + [0], to: "other.bin")
        let raw = try key.signature(for: message)
        try tool.write(TestDER.ecdsaSignature(fromRaw: raw), to: "sig.der")
        let result = try tool.run(["dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.der", "other.bin"])
        #expect(result.status != 0 && result.output.contains("Verification failure"), "\(result.output)")
    }

    @Test func weVerifyOpensslES256SignaturesMadeWithOurExportedKey() throws {
        let tool = try OpenSSLTool()
        defer { tool.remove() }
        let key = ES256.PrivateKey.generate()
        try tool.write(key.pemRepresentation, to: "key.pem")
        try tool.write(message, to: "msg.bin")
        for _ in 0..<8 {
            let result = try tool.run(["dgst", "-sha256", "-sign", "key.pem", "-out", "sig.der", "msg.bin"])
            #expect(result.status == 0, "\(result.output)")
            let raw = try #require(TestDER.rawSignature(fromDER: try tool.read("sig.der")))
            #expect(key.publicKey.isValidSignature(raw, for: message))
            #expect(!key.publicKey.isValidSignature(raw, for: message.dropFirst()))
        }
    }

    @Test func opensslAcceptsOurExportedES256Keys() throws {
        let tool = try OpenSSLTool()
        defer { tool.remove() }
        let key = ES256.PrivateKey.generate()
        try tool.write(key.pemRepresentation, to: "key.pem")
        let check = try tool.run(["pkey", "-in", "key.pem", "-check", "-noout"])
        #expect(check.status == 0 && check.output.contains("Key is valid"), "\(check.output)")
        // openssl derives the same public key from our private PEM.
        let derived = try tool.run(["pkey", "-in", "key.pem", "-pubout"])
        #expect(derived.output == key.publicKey.pemRepresentation)
    }

    @Test func opensslVerifiesOurRS256Signatures() throws {
        let tool = try OpenSSLTool()
        defer { tool.remove() }
        let key = RS256Tests.sharedKey
        try tool.write(key.publicKey.pemRepresentation, to: "pub.pem")
        try tool.write(message, to: "msg.bin")
        try tool.write(try key.signature(for: message), to: "sig.bin")
        let result = try tool.run(["dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.bin", "msg.bin"])
        #expect(result.status == 0 && result.output.contains("Verified OK"), "\(result.output)")
    }

    @Test func weVerifyOpensslRS256SignaturesMadeWithOurExportedKey() throws {
        let tool = try OpenSSLTool()
        defer { tool.remove() }
        let key = RS256Tests.sharedKey
        try tool.write(key.pemRepresentation, to: "key.pem")
        try tool.write(message, to: "msg.bin")
        let result = try tool.run(["dgst", "-sha256", "-sign", "key.pem", "-out", "sig.bin", "msg.bin"])
        #expect(result.status == 0, "\(result.output)")
        let signature = try tool.read("sig.bin")
        #expect(key.publicKey.isValidSignature(signature, for: message))
        // Deterministic padding: openssl and we produce the same bytes.
        #expect(try key.signature(for: message) == signature)
    }

    @Test func traditionalSEC1AndPKCS1PrivateKeysAreAccepted() throws {
        let tool = try OpenSSLTool()
        defer { tool.remove() }
        try tool.write(RFC7515Examples.es256PrivateKeyPEM, to: "ec.pem")
        try tool.write(RFC7515Examples.rs256PrivateKeyPEM, to: "rsa.pem")
        let ec = try tool.run(["ec", "-in", "ec.pem", "-out", "ec-sec1.pem"])
        let rsa = try tool.run(["rsa", "-in", "rsa.pem", "-traditional", "-out", "rsa-pkcs1.pem"])
        #expect(ec.status == 0 && rsa.status == 0, "\(ec.output) \(rsa.output)")
        let sec1 = String(decoding: try tool.read("ec-sec1.pem"), as: UTF8.self)
        let pkcs1 = String(decoding: try tool.read("rsa-pkcs1.pem"), as: UTF8.self)
        #expect(sec1.hasPrefix("-----BEGIN EC PRIVATE KEY-----"))
        #expect(pkcs1.hasPrefix("-----BEGIN RSA PRIVATE KEY-----"))
        #expect(try ES256.PrivateKey(pem: sec1).publicKey.jwk.x == RFC7515Examples.es256PublicJWK.x)
        #expect(try RS256.PrivateKey(pem: pkcs1).publicKey.jwk.n == RFC7515Examples.rs256PublicJWK.n)
        // Export is always PKCS#8.
        #expect(try ES256.PrivateKey(pem: sec1).pemRepresentation == RFC7515Examples.es256PrivateKeyPEM + "\n")
    }

    @Test func encryptedPrivateKeysAreRefusedWithoutPrompting() throws {
        let tool = try OpenSSLTool()
        defer { tool.remove() }
        try tool.write(RFC7515Examples.es256PrivateKeyPEM, to: "ec.pem")
        let result = try tool.run([
            "pkcs8", "-topk8", "-in", "ec.pem", "-v2", "aes-256-cbc", "-passout", "pass:secret", "-out", "enc.pem",
        ])
        #expect(result.status == 0, "\(result.output)")
        let encrypted = String(decoding: try tool.read("enc.pem"), as: UTF8.self)
        #expect(encrypted.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----"))
        // Stdin of the test process may be a terminal; a prompt would hang here instead of throwing.
        #expect(throws: CryptoError.self) { try ES256.PrivateKey(pem: encrypted) }
    }

    @Test func otherCurvesAreRefused() throws {
        let tool = try OpenSSLTool()
        defer { tool.remove() }
        for curve in ["P-384", "secp256k1"] {
            let result = try tool.run([
                "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:\(curve)", "-out", "k.pem",
            ])
            #expect(result.status == 0, "\(result.output)")
            let pem = String(decoding: try tool.read("k.pem"), as: UTF8.self)
            #expect(throws: CryptoError.self, "accepted \(curve)") { try ES256.PrivateKey(pem: pem) }
            let publicKey = try tool.run(["pkey", "-in", "k.pem", "-pubout"])
            #expect(throws: CryptoError.self, "accepted \(curve)") { try ES256.PublicKey(pem: publicKey.output) }
        }
    }
}
