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

    /// Under steady signing the idle maker (the test leaves a core idle) tops the pool up with what
    /// the demand needs, beyond the one batch a signer makes for itself. Every signature verifies.
    @Test func theIdleMakerTopsABusyPoolUp() throws {
        let key = ES256.PrivateKey.generate()
        let pool = try #require(ECDSANoncePool(key: key.key))
        var largest = 0
        var verified = 0
        for _ in 0..<3_000 {
            if Self.sign(pool, key) { verified += 1 }
            largest = max(largest, pool.stockCount)
        }
        #expect(verified == 3_000)
        #expect(largest > 2 * ECDSANoncePool.batchSize)
    }
}
