import Foundation
import Synchronization
import Testing

@testable import HearthCrypto

@Suite("Password hashing pool")
struct PasswordHashingPoolTests {
    /// The reference implementation's first Argon2id vector (64 MiB), computed on `pool`.
    static func referenceHash(on pool: PasswordHashingPool, memoryKiB: UInt32 = 1 << 16) -> String? {
        pool.run { Argon2idReferenceVectorTests.hash(memoryKiB: memoryKiB) }
    }

    @Test("hashes on a worker match libargon2's own, and the worker maps its memory once for all of them")
    func workersReuseTheirMemory() {
        let pool = PasswordHashingPool(threads: 1)
        defer { pool.stop() }
        let expected = "09316115d5cf24ed5a15a31a3ba326e5cf32edc24702987c02b6566f61913cf7"
        for _ in 0..<3 { #expect(Self.referenceHash(on: pool) == expected) }
        #expect(pool.counters.blocksMapped.load(ordering: .relaxed) == 1)
        #expect(pool.counters.bytesHeld.load(ordering: .relaxed) == 64 << 20)
        // RFC 9106's vector (four lanes, a secret and associated data) on the same worker.
        let tag = pool.run {
            [UInt8](repeating: 0x01, count: 32).withUnsafeBytes { password in
                Argon2id.rawHash(
                    password: password,
                    salt: [UInt8](repeating: 0x02, count: 16),
                    secret: [UInt8](repeating: 0x03, count: 8),
                    associatedData: [UInt8](repeating: 0x04, count: 12),
                    iterations: 3,
                    memoryKiB: 32,
                    parallelism: 4,
                    length: 32
                )
            }
        }
        #expect(tag.map(Hex.encode) == "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659")
        // Another size replaced the block rather than adding one.
        #expect(pool.counters.blocksMapped.load(ordering: .relaxed) == 2)
        #expect(pool.counters.bytesHeld.load(ordering: .relaxed) == 32 << 10)
    }

    @Test("a worker's memory holds nothing of the last hash once it is done")
    func heldMemoryIsWiped() throws {
        let pool = PasswordHashingPool(threads: 1)
        defer { pool.stop() }
        let untouched = pool.run { () -> Bool in
            _ = Argon2idReferenceVectorTests.hash(memoryKiB: 1 << 10)
            guard let memory = Argon2Memory.current, let block = memory.block else { return false }
            return UnsafeRawBufferPointer(start: block, count: memory.byteCount).allSatisfy { $0 == 0 }
        }
        #expect(untouched)
    }

    @Test("an idle worker gives its memory back to the kernel, and maps it again for the next hash")
    func idleWorkersReleaseTheirMemory() throws {
        let pool = PasswordHashingPool(threads: 2, releaseAfterMilliseconds: 50)
        defer { pool.stop() }
        #expect(Self.referenceHash(on: pool, memoryKiB: 1 << 12) != nil)
        #expect(pool.counters.bytesHeld.load(ordering: .relaxed) == 4 << 20)
        try Self.await("the memory is released") { pool.counters.bytesHeld.load(ordering: .relaxed) == 0 }
        #expect(Self.referenceHash(on: pool, memoryKiB: 1 << 12) != nil)
        #expect(pool.counters.blocksMapped.load(ordering: .relaxed) == 2)
    }

    @Test("a job that hashes again on a worker runs in place instead of waiting for itself")
    func nestedRunsDoNotDeadlock() {
        let pool = PasswordHashingPool(threads: 1)
        defer { pool.stop() }
        #expect(pool.run { pool.run { 42 } } == 42)
    }

    @Test("many callers at once each get their own verification's answer")
    func concurrentCallers() {
        let pool = PasswordHashingPool(threads: 2)
        defer { pool.stop() }
        let parameters = Argon2id(memoryKiB: 1 << 10, iterations: 1)
        let phc = pool.run { parameters.hash(password: "right") }
        let answers = Mutex<[Int: Bool]>([:])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let password = index.isMultiple(of: 2) ? "right" : "wrong"
            let matches = pool.run { Argon2id.verify(password: password, phc: phc) }
            answers.withLock { $0[index] = matches }
        }
        #expect(answers.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<8).map { ($0, $0.isMultiple(of: 2)) }))
    }

    /// Waits up to 10 s for `condition`, checking every 10 ms.
    static func await(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            guard Date() < deadline else { throw PoolTestFailure(what) }
            usleep(10_000)
        }
    }
}

struct PoolTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ what: String) { description = "timed out waiting until \(what)" }
}
