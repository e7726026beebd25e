import COpenSSL
import HearthBase
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Signs P-256 digests with nonces made ahead of time, in batches.
///
/// Nearly all of an ECDSA signature's cost is the nonce: the scalar multiplication k·G and the inversion
/// of k, neither of which depends on the message. `ECDSA_sign_setup` makes k⁻¹ and r = x(k·G) mod n for a
/// fresh random k; `ECDSA_do_sign_ex` finishes a signature of a digest with them in under a microsecond.
/// A signer that finds the pool empty makes `batchSize` nonces in one tight loop, uses one and leaves the
/// rest for the signers after it. In a loop the multiplication's tables and code stay hot; interleaved with
/// request handling a whole signature measured ~36 µs in the server against ~21 µs per nonce in a batch.
///
/// Ahead of demand the pool is topped up, to what recent signing needs, by `NonceMaker`, a
/// background thread; so a signature usually costs the request about a microsecond, and only a
/// signer that outruns the maker makes a batch itself, as above.
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
    /// The most a pool keeps: at 20,000 signatures a second it lasts ~50 ms; 1,024 nonces take
    /// ~130 KB. A pool is topped up to about twice what was signed since its last top-up (at least
    /// a batch), so memory follows demand: the key of a project that signs now and then holds a few
    /// dozen nonces, not a thousand.
    private static let maximumStock = 1_024

    private let key: OpaquePointer  // EC_KEY
    private let stock = Mutex<[Nonce]>([])
    /// Whether the pool is queued for (or being topped up by) the maker.
    private let refillRequested = Atomic<Bool>(false)
    /// Signatures since the last top-up, and the level that top-up aimed for; the maker is asked
    /// again when the stock falls below a quarter of it.
    private let signedSinceTopUp = Atomic<Int>(0)
    private let target = Atomic<Int>(ECDSANoncePool.batchSize)

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

    /// Nonces currently made and unused.
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
        let (taken, left) = stock.withLock { ($0.popLast(), $0.count) }
        signedSinceTopUp.add(1, ordering: .relaxed)
        // (An empty stock gets a batch from this signer below; the maker is asked as it runs low again.)
        if taken != nil, left < target.load(ordering: .relaxed) / 4,
            !refillRequested.exchange(true, ordering: .acquiringAndReleasing)
        {
            NonceMaker.shared?.enqueue(self)
        }
        if let taken { return taken }
        var batch = makeBatch()
        guard let mine = batch.popLast() else { return nil }
        store(batch)
        return mine
    }

    /// Adds `batch` to the stock, destroying what does not fit.
    private func store(_ batch: [Nonce]) {
        let surplus = stock.withLock { stock -> ArraySlice<Nonce> in
            let room = max(0, Self.maximumStock - stock.count)
            stock.append(contentsOf: batch.prefix(room))
            return batch.dropFirst(room)
        }
        for nonce in surplus { nonce.destroy() }
    }

    /// Tops the stock up to twice the signatures since the last top-up (between a batch and
    /// `maximumStock`), a batch at a time, on the maker's thread.
    fileprivate func topUp(by maker: NonceMaker) {
        let level = min(Self.maximumStock, max(Self.batchSize, 2 * signedSinceTopUp.exchange(0, ordering: .relaxed)))
        target.store(level, ordering: .relaxed)
        while stockCount < level {
            guard let batch = maker.unlessExiting({ makeBatch() }), !batch.isEmpty else { break }
            store(batch)
        }
        refillRequested.store(false, ordering: .releasing)
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

/// The one thread that tops nonce pools up, scheduled `SCHED_BATCH`: a fair share of the CPU, but
/// its wake-ups never preempt a request's thread. It holds the pool's lock only to append a
/// finished batch. Linux only; elsewhere pools make their batches on demand.
///
/// Not `SCHED_IDLE` (run only on CPU time nothing else wants): on a saturated server such a maker
/// rarely runs, the request threads make the nonces themselves, and under the profiler they spent
/// ~7.5 % of all CPU in OpenSSL's global random-method lock, taken for every nonce (0.04 % with a
/// batch-scheduled maker). Paired runs of token generation: 6–10 % more tokens a second with
/// `SCHED_BATCH` (or `SCHED_OTHER`) than with `SCHED_IDLE`, the same as idle with `nice 19`.
///
/// When the process exits, OpenSSL's exit handler frees its global state; a thread still inside
/// OpenSSL then crashes. So an exit handler of the maker's own (registered after OpenSSL's, so run
/// before it) waits for the batch in progress and stops the maker before OpenSSL is torn down.
private final class NonceMaker: Sendable {
    static let shared: NonceMaker? = {
        #if canImport(Glibc)
            let maker = NonceMaker()
            startBackgroundThread(named: "nonce-maker") { maker.run() }
            atexit { NonceMaker.shared?.stopForExit() }
            return maker
        #else
            return nil
        #endif
    }()

    private let queue = ConditionLock<[ECDSANoncePool]>([])
    /// Whether the process is exiting; held while a batch is made.
    private let exiting = Mutex<Bool>(false)

    /// `body()`, unless the process is exiting (`nil` then).
    func unlessExiting<Result: Sendable>(_ body: () -> Result) -> Result? {
        exiting.withLock { exiting in exiting ? nil : body() }
    }

    private func stopForExit() {
        exiting.withLock { $0 = true }
    }

    func enqueue(_ pool: ECDSANoncePool) {
        queue.withLockThenBroadcast { $0.append(pool) }
    }

    private func run() {
        #if canImport(Glibc)
            var parameters = sched_param(sched_priority: 0)
            _ = sched_setscheduler(0, Self.batchPolicy, &parameters)
        #endif
        while true {
            let pool = queue.wait(until: { !$0.isEmpty }, then: { $0.removeFirst() })
            pool.topUp(by: self)
        }
    }

    /// `SCHED_BATCH` from `<sched.h>` (a GNU extension the Swift importer does not expose).
    private static let batchPolicy: Int32 = 3
}
