import HearthBase
import HearthCore
import HearthStore
import Synchronization
import Testing

/// Two nodes' keepers of one lease on one store, on a manual clock: one holds it, the other
/// waits for its lapse, takes it over and wakes its work; a release frees it at once.
@Suite struct LeaseKeeperTests {
    private let temporary: TemporaryStore
    private let clock = ManualClock(milliseconds: 1_000_000)

    init() throws {
        temporary = try TemporaryStore()
    }

    private func keeper(_ holder: String, clock: (any Clock)? = nil) -> LeaseKeeper {
        LeaseKeeper(
            name: "singleton-work",
            store: temporary.store,
            log: Log(minimumLevel: .error),
            durationMilliseconds: 30_000,
            clock: clock ?? self.clock,
            holder: holder
        )
    }

    @Test func theFirstNodeTakesTheLeaseAndRenewsItEveryThirdOfItsDuration() throws {
        let a = keeper("node-a")
        let taken = Mutex(0)
        a.whenTaken { taken.withLock { $0 += 1 } }
        #expect(!a.isHeld)
        #expect(a.renew() == 10_000)
        #expect(a.isHeld)
        #expect(a.heldUntilMilliseconds == 1_030_000)
        clock.advance(milliseconds: 10_000)
        #expect(a.renew() == 10_000)
        #expect(a.heldUntilMilliseconds == 1_040_000)
        // Renewals are not takings: the work was woken once.
        #expect(taken.withLock { $0 } == 1)
    }

    @Test func anotherNodeWaitsForTheLapseThenTakesOverAndWakesItsWork() throws {
        let (a, b) = (keeper("node-a"), keeper("node-b"))
        let bTaken = Mutex(0)
        b.whenTaken { bTaken.withLock { $0 += 1 } }
        a.renew()
        clock.advance(milliseconds: 25_000)
        // Refused; it comes back when a's lease lapses, 5 s on, not a whole interval later.
        #expect(b.renew() == 5_000)
        #expect(!b.isHeld)
        // a dies: it renews no more. Just before the lapse b is still refused...
        clock.advance(milliseconds: 4_999)
        #expect(b.renew() == 1)
        #expect(!b.isHeld)
        // ...and at it, b holds the lease while a, its local time up, knows it does not.
        clock.advance(milliseconds: 1)
        #expect(!a.isHeld)
        #expect(b.renew() == 10_000)
        #expect(b.isHeld)
        #expect(bTaken.withLock { $0 } == 1)
        // a, back, is refused and stays out.
        #expect(a.renew() == 10_000)
        #expect(!a.isHeld)
        #expect(try temporary.store.read { try $0.lease("singleton-work")?.holder } == "node-b")
    }

    @Test func aReleasedLeaseIsTakenByTheNextAttemptWithoutWaitingForItsExpiry() throws {
        let (a, b) = (keeper("node-a"), keeper("node-b"))
        a.renew()
        #expect(!b.isHeld)
        b.renew()
        a.release()
        #expect(!a.isHeld)
        #expect(try temporary.store.read { try $0.lease("singleton-work") } == nil)
        b.renew()
        #expect(b.isHeld)
    }

    /// The held-until time counts from when the renewal started: a clock read again later
    /// (a slow write) adds nothing to it.
    @Test func aRenewalHoldsFromWhenItStartedNotFromWhenTheStoreAnswered() throws {
        let stepping = SteppingClock(start: 2_000_000, step: 7_000)
        let a = keeper("node-a", clock: stepping)
        a.renew()
        #expect(try temporary.store.read { try $0.lease("singleton-work")?.expiresAt } == 2_030_000)
        #expect(a.heldUntilMilliseconds == 2_030_000)
    }
}

/// A clock that moves `step` milliseconds forward each time it is read.
private final class SteppingClock: Clock {
    private let next: Atomic<Int64>
    private let step: Int64

    init(start: Int64, step: Int64) {
        next = Atomic(start)
        self.step = step
    }

    func nowMilliseconds() -> Int64 { next.add(step, ordering: .relaxed).oldValue }
}
