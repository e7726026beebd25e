import COpenSSL
import Synchronization

/// Signs P-256 digests with nonces made ahead of time, in batches.
///
/// Nearly all of an ECDSA signature's cost is the nonce: the scalar multiplication k·G and the inversion
/// of k, neither of which depends on the message. `ECDSA_sign_setup` makes k⁻¹ and r = x(k·G) mod n for a
/// fresh random k; `ECDSA_do_sign_ex` finishes a signature of a digest with them in under a microsecond.
/// A signer that finds the pool empty makes `batchSize` nonces in one tight loop, uses one and leaves the
/// rest for the signers after it. In a loop the multiplication's tables and code stay hot; interleaved with
/// request handling a whole signature measured ~36 µs in the server against ~21 µs per nonce in a batch.
///
/// A nonce used twice gives away the private key, so each one leaves the pool under the lock, is used for
/// exactly one signature and is then cleared and freed. Nonces never leave this process's memory, where the
/// private key already lives.
///
/// `@unchecked Sendable`: the `EC_KEY` is only read after `init` (OpenSSL allows concurrent signing with one
/// key); the nonces are owned by the pool while in `stock` and by one signer after it takes them.
final class ECDSANoncePool: @unchecked Sendable {
    /// k⁻¹ mod n and r, as `BIGNUM`s owned by whoever holds the value.
    private struct Nonce: @unchecked Sendable {
        let inverse: OpaquePointer
        let r: OpaquePointer

        func destroy() {
            BN_clear_free(inverse)
            BN_clear_free(r)
        }
    }

    /// Nonces made per refill: large enough to amortise the cold start of a batch, small enough that the
    /// signer who pays for it waits well under a millisecond.
    static let batchSize = 32
    private static let maximumStock = 4 * batchSize

    private let key: OpaquePointer  // EC_KEY
    private let stock = Mutex<[Nonce]>([])

    /// A pool for `key`, a validated P-256 private key; `nil` if OpenSSL cannot give its legacy form (the
    /// caller then signs without precomputation).
    init?(key: EVPKey) {
        guard let legacy = EVP_PKEY_get1_EC_KEY(key.pointer) else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        self.key = legacy
    }

    deinit {
        for nonce in stock.withLock({ $0 }) { nonce.destroy() }
        EC_KEY_free(key)
    }

    /// Nonces currently made and unused (for tests).
    var stockCount: Int {
        stock.withLock { $0.count }
    }

    /// Signs the 32-byte `digest`, writing the 64-byte `r ‖ s` into `output`.
    /// - Returns: `false` if OpenSSL failed (the error queue is cleared); the caller signs another way.
    func sign(digest: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableRawBufferPointer) -> Bool {
        precondition(digest.count == SHA256.byteCount && output.count >= ECDSASignature.rawByteCount)
        guard let nonce = take() else { return false }
        defer { nonce.destroy() }
        guard let signature = ECDSA_do_sign_ex(digest.baseAddress, Int32(digest.count), nonce.inverse, nonce.r, key)
        else {
            // Also the case s = 0, which needs another nonce (probability ~2⁻²⁵⁶).
            OpenSSLErrorQueue.clear()
            return false
        }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer? = nil
        var s: OpaquePointer? = nil
        ECDSA_SIG_get0(signature, &r, &s)
        let out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let width = Int32(ECDSASignature.coordinateByteCount)
        return BN_bn2binpad(r, out, width) == width && BN_bn2binpad(s, out + Int(width), width) == width
    }

    /// One unused nonce, refilling the stock with a batch first when it is empty.
    private func take() -> Nonce? {
        if let nonce = stock.withLock({ $0.popLast() }) { return nonce }
        var batch = makeBatch()
        guard let mine = batch.popLast() else { return nil }
        let surplus = stock.withLock { stock -> [Nonce] in
            let room = max(0, Self.maximumStock - stock.count)
            stock.append(contentsOf: batch.prefix(room))
            return Array(batch.dropFirst(room))
        }
        for nonce in surplus { nonce.destroy() }
        return mine
    }

    private func makeBatch() -> [Nonce] {
        guard let context = BN_CTX_new() else {
            OpenSSLErrorQueue.clear()
            return []
        }
        defer { BN_CTX_free(context) }
        var batch: [Nonce] = []
        batch.reserveCapacity(Self.batchSize)
        for _ in 0..<Self.batchSize {
            var inverse: OpaquePointer? = nil
            var r: OpaquePointer? = nil
            guard ECDSA_sign_setup(key, context, &inverse, &r) == 1, let inverse, let r else {
                OpenSSLErrorQueue.clear()
                break
            }
            batch.append(Nonce(inverse: inverse, r: r))
        }
        return batch
    }
}
