import HearthCore
import Testing

@Suite struct RetryScheduleJitterTests {
    let schedule = RetrySchedule(baseMilliseconds: 1_000, maximumMilliseconds: 60_000)

    @Test func theWaitDoublesPerAttemptWithinHalfAndAllOfIt() {
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 1, random: 0) == 500)
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 1, random: 0.999_999) == 999)
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 2, random: 0) == 1_000)
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 3, random: 0.5) == 3_000)
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 4, random: 0) == 4_000)
        for attempt in 1...10 {
            let ceiling = min(1_000 << (attempt - 1), 60_000)
            for random in [0, 0.25, 0.5, 0.75, 0.99] {
                let delay = schedule.delayMilliseconds(afterFailedAttempts: attempt, random: random) ?? -1
                #expect(delay >= Int64(ceiling / 2) && delay <= Int64(ceiling))
            }
        }
    }

    @Test func theWaitStopsGrowingAtTheCap() {
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 7, random: 0) == 30_000)
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 12, random: 1) == 60_000)
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 1_000, random: 1) == 60_000)
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 0, random: 0) == 500)
    }
}
