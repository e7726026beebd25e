import Dispatch
import HearthStore
import Synchronization
import Testing

/// The `leases` statements on every store kind: a lease is taken, renewed by its holder,
/// refused to others until it lapses, then taken over, and released only by its holder.
@Suite struct LeaseStoreContractTests {
    private let name = "singleton-work"

    private func take(_ store: any Store, _ holder: String, until expiry: Int64, now: Int64) throws -> Bool {
        let name = self.name
        return try store.write { try $0.takeLease(name, holder: holder, until: expiry, now: now) }
    }

    private func stored(_ store: any Store) throws -> LeaseRecord? {
        let name = self.name
        return try store.read { try $0.lease(name) }
    }

    @Test(arguments: StoreKind.allCases)
    func aFreeLeaseIsTakenAndItsHolderRenewsIt(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        #expect(try stored(fixture.store) == nil)
        #expect(try take(fixture.store, "node-a", until: 1_030, now: 1_000))
        #expect(try stored(fixture.store) == LeaseRecord(name: name, holder: "node-a", expiresAt: 1_030))
        #expect(try take(fixture.store, "node-a", until: 1_040, now: 1_010))
        #expect(try stored(fixture.store) == LeaseRecord(name: name, holder: "node-a", expiresAt: 1_040))
        // A holder renews even a lease that lapsed while nobody else took it.
        #expect(try take(fixture.store, "node-a", until: 1_090, now: 1_060))
        #expect(try stored(fixture.store)?.expiresAt == 1_090)
    }

    @Test(arguments: StoreKind.allCases)
    func anotherHolderIsRefusedUntilTheLeaseLapsesThenTakesItOver(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        #expect(try take(fixture.store, "node-a", until: 1_030, now: 1_000))
        #expect(try !take(fixture.store, "node-b", until: 1_039, now: 1_009))
        #expect(try !take(fixture.store, "node-b", until: 1_059, now: 1_029))
        #expect(try stored(fixture.store) == LeaseRecord(name: name, holder: "node-a", expiresAt: 1_030))
        // At its expiry the lease is free.
        #expect(try take(fixture.store, "node-b", until: 1_060, now: 1_030))
        #expect(try stored(fixture.store) == LeaseRecord(name: name, holder: "node-b", expiresAt: 1_060))
        // The old holder, back late, no longer renews it.
        #expect(try !take(fixture.store, "node-a", until: 1_061, now: 1_031))
        #expect(try stored(fixture.store)?.holder == "node-b")
    }

    @Test(arguments: StoreKind.allCases)
    func aReleasedLeaseIsFreeAtOnceAndOnlyItsHolderReleasesIt(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let name = self.name
        #expect(try take(fixture.store, "node-a", until: 1_030, now: 1_000))
        #expect(try !fixture.store.write { try $0.releaseLease(name, holder: "node-b") })
        #expect(try stored(fixture.store)?.holder == "node-a")
        #expect(try fixture.store.write { try $0.releaseLease(name, holder: "node-a") })
        #expect(try stored(fixture.store) == nil)
        #expect(try take(fixture.store, "node-b", until: 1_031, now: 1_001))
    }

    @Test(arguments: StoreKind.allCases)
    func leasesOfDifferentNamesAreIndependent(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        #expect(try fixture.store.write { try $0.takeLease("one", holder: "node-a", until: 1_030, now: 1_000) })
        #expect(try fixture.store.write { try $0.takeLease("two", holder: "node-b", until: 1_030, now: 1_000) })
        #expect(try fixture.store.read { try $0.lease("one")?.holder } == "node-a")
        #expect(try fixture.store.read { try $0.lease("two")?.holder } == "node-b")
    }

    /// Many holders racing for one lapsed lease at once, each on its own thread (and, on
    /// PostgreSQL, its own transaction): exactly one of them gets it.
    @Test(arguments: StoreKind.allCases)
    func ofHoldersRacingForALapsedLeaseExactlyOneWins(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        #expect(try take(fixture.store, "node-old", until: 1_000, now: 900))
        let store = fixture.store
        let winners = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let holder = "node-\(index)"
            if (try? take(store, holder, until: 2_000, now: 1_500)) == true {
                winners.withLock { $0.append(holder) }
            }
        }
        let won = winners.withLock { $0 }
        #expect(won.count == 1)
        #expect(try stored(fixture.store)?.holder == won.first)
    }
}
