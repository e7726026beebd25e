import HearthMail
import Testing

@Suite struct RetryScheduleTests {
    let schedule = RetrySchedule(baseMilliseconds: 1_000, capMilliseconds: 60_000)

    @Test func theWaitDoublesPerAttemptWithinHalfAndAllOfIt() {
        #expect(schedule.delay(afterAttempt: 1, random: 0) == 500)
        #expect(schedule.delay(afterAttempt: 1, random: 0.999_999) == 999)
        #expect(schedule.delay(afterAttempt: 2, random: 0) == 1_000)
        #expect(schedule.delay(afterAttempt: 3, random: 0.5) == 3_000)
        #expect(schedule.delay(afterAttempt: 4, random: 0) == 4_000)
        for attempt in 1...10 {
            let ceiling = min(1_000 << (attempt - 1), 60_000)
            for random in [0, 0.25, 0.5, 0.75, 0.99] {
                let delay = schedule.delay(afterAttempt: attempt, random: random)
                #expect(delay >= Int64(ceiling / 2) && delay <= Int64(ceiling))
            }
        }
    }

    @Test func theWaitStopsGrowingAtTheCap() {
        #expect(schedule.delay(afterAttempt: 7, random: 0) == 30_000)
        #expect(schedule.delay(afterAttempt: 12, random: 1) == 60_000)
        #expect(schedule.delay(afterAttempt: 1_000, random: 1) == 60_000)
        #expect(schedule.delay(afterAttempt: 0, random: 0) == 500)
    }
}
