import CArgon2
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The memory of one hashing thread's Argon2 hashes (19 MiB at OWASP's parameters), mapped once and
/// kept from hash to hash while the thread is busy, then unmapped when it has been idle a while
/// (``PasswordHashingPool``).
///
/// Why: without it libargon2 `malloc`s and frees the block on every hash. glibc then keeps
/// one such block in each thread's arena for good (after the first free it raises its `mmap`
/// threshold above the block's size), so a server that hashed once holds ~19 MiB per thread
/// forever — 65 MB resident after a sign-in load instead of 27 MB. An explicit block is reused
/// just as cheaply (no page faults per hash) and goes back to the kernel when the load ends.
///
/// Invariant that makes reuse safe: libargon2 wipes the whole block before handing it to the
/// free callback (`clear_internal_memory`: its `FLAG_clear_internal_memory` is 1 and Debian's
/// library does not export it to change), so a held block is zeros between hashes; and Argon2
/// writes every block of its memory before it reads it, so no hash depends on what the block
/// held before. `Argon2MemoryTests` checks the first.
///
/// Only its own thread touches a memory; libargon2's callbacks, which take no context, find it
/// through a thread-specific key.
final class Argon2Memory {
    private(set) var block: UnsafeMutableRawPointer?
    private(set) var byteCount = 0
    /// The mapping that holds `block`.
    private var mapping: (base: UnsafeMutableRawPointer, length: Int)?
    private let statistics: PasswordHashingPool.Counters

    init(statistics: PasswordHashingPool.Counters) {
        self.statistics = statistics
    }

    deinit { release() }

    /// The calling thread's memory, if it is a hashing thread.
    static var current: Argon2Memory? {
        pthread_getspecific(currentMemoryKey).map { Unmanaged<Argon2Memory>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Makes this the calling thread's memory until `body` returns.
    func whileCurrent(_ body: () -> Void) {
        pthread_setspecific(currentMemoryKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(currentMemoryKey, nil) }
        body()
    }

    /// A block of `count` bytes: the one held if it has that size, else a new mapping (a hash with
    /// other parameters, from an older PHC string, replaces the block).
    ///
    /// The block is backed by transparent huge pages where the kernel gives them on request
    /// (`madvise` mode, Debian's default): Argon2 reads its reference blocks at pseudo-random
    /// places across the whole 19 MiB, so with 4 KiB pages most of those reads also miss the TLB.
    /// Measured hash by hash, alternating the two kinds of block in one C loop over libargon2
    /// (200 hashes, three runs): 5–8 % less CPU per hash. The mapping is one huge page longer
    /// than the block so that the block can start on a huge-page boundary; the slack is never
    /// touched, so it costs address space, not memory.
    func block(byteCount count: Int) -> UnsafeMutableRawPointer? {
        if let block, byteCount == count { return block }
        release()
        let length = count + Self.hugePageBytes
        guard let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            base != MAP_FAILED
        else { return nil }
        let aligned = (Int(bitPattern: base) + Self.hugePageBytes - 1) & ~(Self.hugePageBytes - 1)
        let block = base + (aligned - Int(bitPattern: base))
        #if os(Linux)
            _ = madvise(block, count, MADV_HUGEPAGE)  // advice: refused, the block keeps 4 KiB pages
        #endif
        mapping = (base, length)
        self.block = block
        byteCount = count
        statistics.blocksMapped.add(1, ordering: .relaxed)
        statistics.bytesHeld.add(count, ordering: .relaxed)
        return block
    }

    /// Gives the block back to the kernel.
    func release() {
        guard let mapping else { return }
        munmap(mapping.base, mapping.length)
        statistics.bytesHeld.subtract(byteCount, ordering: .relaxed)
        self.mapping = nil
        block = nil
        byteCount = 0
    }

    /// x86-64's and arm64's (4 KiB base pages) transparent huge page size.
    private static let hugePageBytes = 2 << 20

    /// libargon2's allocation callback: the calling thread's block.
    static let allocate: allocate_fptr = { memory, count in
        memory?.pointee = Argon2Memory.current?.block(byteCount: count)?.assumingMemoryBound(to: UInt8.self)
        // libargon2 ignores the return value and checks the pointer instead.
        return memory?.pointee == nil ? ARGON2_MEMORY_ALLOCATION_ERROR.rawValue : ARGON2_OK.rawValue
    }

    /// libargon2's free callback: keeps the (already wiped) block for the thread's next hash.
    static let keep: deallocate_fptr = { _, _ in }
}

private let currentMemoryKey: pthread_key_t = {
    var key = pthread_key_t()
    precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
    return key
}()
