import Testing

@testable import HearthCrypto

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ECDSANoncePoolTests {
    private static let message = Array("message".utf8)

    private static func sign(_ pool: ECDSANoncePool, _ key: ES256.PrivateKey) -> Bool {
        let digest = SHA256.hash(message)
        var signature = [UInt8](repeating: 0, count: 64)
        let signed = digest.withUnsafeBufferPointer { digest in
            signature.withUnsafeMutableBytes { pool.sign(digest: digest, into: $0) }
        }
        return signed && key.publicKey.isValidSignature(signature, for: message)
    }

    /// A key that signs now and then keeps a batch or two of nonces, not the maximum: the first
    /// signature makes a batch itself and nothing asks for more.
    @Test func aPoolThatSignsOnceStaysSmall() throws {
        let key = ES256.PrivateKey.generate()
        let pool = try #require(ECDSANoncePool(key: key.key))
        #expect(Self.sign(pool, key))
        usleep(200_000)
        #expect(pool.stockCount == ECDSANoncePool.batchSize - 1)
    }

    /// Signing on until the stock falls below a quarter of its target (8 of a first batch's 32) asks
    /// the maker, which tops the pool up to about twice the signatures so far. The maker is a batch
    /// thread, which a loaded test run may leave waiting, hence the generous wait.
    @Test func theMakerTopsUpAPoolThatRunsLow() throws {
        let key = ES256.PrivateKey.generate()
        let pool = try #require(ECDSANoncePool(key: key.key))
        for _ in 0..<28 { #expect(Self.sign(pool, key)) }
        var waited = 0
        while pool.stockCount <= ECDSANoncePool.batchSize, waited < 30_000 {
            usleep(20_000)
            waited += 20
        }
        #expect(pool.stockCount > ECDSANoncePool.batchSize)
        #expect(pool.stockCount <= 4 * ECDSANoncePool.batchSize)
    }
}
