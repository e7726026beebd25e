import COpenSSL
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Cryptographically secure random bytes from OpenSSL's DRBG, which the OS entropy source seeds and reseeds.
///
/// Small requests are served from a 4 KiB block drawn from the DRBG at once: each `RAND_bytes` call costs
/// about 3-4 µs whatever its size (a lock, a fork check, the generator's bookkeeping), which was a tenth of
/// an installation create's request handling. Every byte is handed out once and the block is wiped as it is
/// used; a forked child discards the block it inherited (`pthread_atfork`), so parent and child never share bytes.
public enum SecureRandom {
    /// Returns `count` random bytes.
    ///
    /// Failure means the process has no working entropy source, which no caller can recover from, so it stops
    /// the process instead of returning weak bytes.
    public static func bytes(count: Int) -> [UInt8] {
        precondition(count >= 0, "SecureRandom.bytes(count:) needs a non-negative count")
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            fill(UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
    }

    /// Fills `buffer` with random bytes (see `bytes(count:)` for the failure policy).
    static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        if buffer.count <= Block.largestServed {
            // Passed as an address: the caller's memory is written under the lock, by this thread.
            let address = UInt(bitPattern: buffer.baseAddress)
            let count = buffer.count
            block.withLock { $0.take(into: address, count: count) }
        } else {
            draw(into: buffer)
        }
    }

    /// Fills `buffer` straight from the DRBG.
    private static func draw(into buffer: UnsafeMutableRawBufferPointer) {
        var offset = 0
        while offset < buffer.count {
            let chunk = min(buffer.count - offset, Int(Int32.max))
            let status = RAND_bytes(buffer.baseAddress! + offset, Int32(chunk))
            precondition(status == 1, "RAND_bytes failed: \(OpenSSLErrorQueue.drain() ?? "no detail")")
            offset += chunk
        }
    }

    private static let block: Mutex<Block> = {
        #if canImport(Glibc)
            // Only an atomic in the child: a lock another thread held at the fork stays held there.
            pthread_atfork(nil, nil) { SecureRandom.forks.add(1, ordering: .relaxed) }
        #endif
        return Mutex(Block())
    }()

    /// Forked children so far in this process's line; a block drawn before a fork is discarded.
    private static let forks = Atomic<Int>(0)

    /// Drawn bytes not yet handed out: `storage[used...]`. Handed-out bytes are zeroed.
    private struct Block: ~Copyable {
        static let size = 4_096
        static let largestServed = 256
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        var used = size  // empty until the first request
        /// `forks` when the block was drawn.
        var drawnAfterFork = 0

        mutating func take(into address: UInt, count: Int) {
            guard count > 0, let base = UnsafeMutableRawPointer(bitPattern: address) else { return }
            let buffer = UnsafeMutableRawBufferPointer(start: base, count: count)
            let forks = SecureRandom.forks.load(ordering: .relaxed)
            if forks != drawnAfterFork {
                discard()  // drawn by the parent, which may hand out the same bytes
                drawnAfterFork = forks
            }
            if Self.size - used < buffer.count {
                SecureRandom.draw(into: storage)
                used = 0
            }
            let source = UnsafeMutableRawBufferPointer(rebasing: storage[used..<used + buffer.count])
            buffer.copyMemory(from: UnsafeRawBufferPointer(source))
            source.initializeMemory(as: UInt8.self, repeating: 0)
            used += buffer.count
        }

        /// Forgets the unused bytes (a forked child must not hand out its parent's).
        mutating func discard() {
            storage.initializeMemory(as: UInt8.self, repeating: 0)
            used = Self.size
        }

        deinit { storage.deallocate() }
    }
}
