import Testing

@testable import HearthCrypto

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ECDSANoncePoolTests {
    /// The first signature finds the pool empty, makes a batch itself and asks the idle maker to top the
    /// pool up; with the test's CPU otherwise idle the stock grows past one batch. Signatures made from the
    /// stock verify.
    @Test func theIdleMakerTopsThePoolUpBetweenSignatures() throws {
        let key = ES256.PrivateKey.generate()
        let pool = try #require(ECDSANoncePool(key: key.key))
        let digest = SHA256.hash(Array("message".utf8))
        var signature = [UInt8](repeating: 0, count: 64)
        let signed = digest.withUnsafeBufferPointer { digest in
            signature.withUnsafeMutableBytes { pool.sign(digest: digest, into: $0) }
        }
        #expect(signed)
        #expect(key.publicKey.isValidSignature(signature, for: Array("message".utf8)))
        #expect(pool.stockCount >= ECDSANoncePool.batchSize - 1)

        var waited = 0
        while pool.stockCount <= ECDSANoncePool.batchSize, waited < 10_000 {
            usleep(10_000)
            waited += 10
        }
        #expect(pool.stockCount > ECDSANoncePool.batchSize)
    }
}
