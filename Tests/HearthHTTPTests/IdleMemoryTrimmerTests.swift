import Synchronization
import Testing

@testable import HearthHTTP

/// When the server hands freed memory back: after an idle second, and once more after ten.
@Suite struct IdleMemoryTrimmerTests {
    @Test func anIdlePeriodTrimsAfterOneSecondAndAgainAfterTenThenNoMore() {
        let second: UInt64 = 1_000_000_000
        let trimmer = IdleMemoryTrimmer(idleNanoseconds: second)
        trimmer.tick(now: 5 * second)
        #expect(trimmer.trims.load(ordering: .relaxed) == 0, "trimmed before any activity")

        trimmer.noteActivity()
        var trimsAt: [UInt64] = []
        for tenth in 51...300 {
            let before = trimmer.trims.load(ordering: .relaxed)
            trimmer.tick(now: UInt64(tenth) * second / 10)
            if trimmer.trims.load(ordering: .relaxed) > before { trimsAt.append(UInt64(tenth)) }
        }
        // Activity first seen at 5.1 s: trims at 6.1 s and 15.1 s.
        #expect(trimsAt == [61, 151])

        trimmer.noteActivity()
        trimmer.tick(now: 31 * second)
        trimmer.tick(now: 32 * second)
        #expect(trimmer.trims.load(ordering: .relaxed) == 3, "activity starts a new idle period")
    }
}
