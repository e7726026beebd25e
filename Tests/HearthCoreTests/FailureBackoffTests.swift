import HearthBase
import HearthCore
import HearthStore
import Testing

/// `FailureBackoff`'s arithmetic over the store's real rate counters, with a manual clock.
@Suite struct FailureBackoffTests {
    let temporary: TemporaryStore
    let clock = ManualClock(milliseconds: 1_800_000_000_000)
    let backoff = FailureBackoff(
        name: "test",
        freeFailures: 3,
        schedule: RetrySchedule(baseMilliseconds: 1_000, maximumMilliseconds: 8_000),
        memorySeconds: 3_600
    )

    init() throws { temporary = try TemporaryStore() }

    private func fail(_ key: String = "k") throws {
        let now = clock.nowSeconds()
        try temporary.store.write { [backoff] in try FailureBackoff.recordFailure([(backoff, key)], in: $0, now: now) }
    }

    private func wait(_ key: String = "k", freeFailures: Int64? = nil) throws -> Int64? {
        let now = clock.nowSeconds()
        let failures = try temporary.store.read { try backoff.failures(key, in: $0, now: now) }
        return backoff.waitSeconds(after: failures, now: now, freeFailures: freeFailures)
    }

    @Test("The free failures cost nothing; each one beyond them doubles the wait up to the cap")
    func freeFailuresThenDoublingToTheCap() throws {
        for _ in 0..<3 {
            #expect(try wait() == nil)
            try fail()
        }
        #expect(try wait() == nil, "the attempt after the free failures is still allowed")
        var waits: [Int64] = []
        for _ in 0..<6 {
            try fail()
            let seconds = try #require(try wait())
            waits.append(seconds)
            clock.advance(milliseconds: (seconds - 1) * 1_000)
            #expect(try wait() == 1, "one second before the wait ends")
            clock.advance(milliseconds: 1_000)
            #expect(try wait() == nil, "allowed once the wait has passed")
        }
        #expect(waits == [1, 2, 4, 8, 8, 8])
    }

    @Test("Failures are forgotten once the memory has passed, and a reset forgets them at once")
    func forgettingAndReset() throws {
        for _ in 0..<5 { try fail() }
        #expect(try wait() == 2)
        clock.advance(milliseconds: 3_600_000)
        #expect(try wait() == nil)
        try fail()
        #expect(try wait() == nil, "the old failures no longer count")

        for _ in 0..<5 { try fail("other") }
        #expect(try wait("other") != nil)
        try temporary.store.write { [backoff] in try backoff.reset("other", in: $0) }
        #expect(try wait("other") == nil)
    }

    @Test("Keys back off on their own; a stricter allowance removes the free failures")
    func keysAreSeparateAndTheAllowanceCanShrink() throws {
        for _ in 0..<4 { try fail("attacker") }
        #expect(try wait("attacker") == 1)
        #expect(try wait("owner") == nil)
        try fail("owner")
        #expect(try wait("owner") == nil)
        #expect(try wait("owner", freeFailures: 0) == 1)
    }
}
