import Dispatch
import HearthStore
import Synchronization
import Testing

/// How every `Store` runs a `StoreWrite`: a plan's refusal fails its write alone, an apply's
/// store error fails its group, and the after-commit step runs only once the write is durable.
@Suite struct StoreWriteContractTests {
    private static let migrations =
        Schema.migrations + [
            Migration(
                version: 1000,
                name: "scratch table for store write tests",
                sql: "CREATE TABLE scratch (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE, payload BYTES)"
            )
        ]

    private struct Refused: Error {}

    private func ids(_ store: any Store) throws -> Set<Int> {
        Set(
            try store.read {
                try $0.connection.query(SQLStatement(oneOff: "SELECT id FROM scratch"), []).map { Int($0.int64(0)) }
            }
        )
    }

    @Test(arguments: StoreKind.allCases)
    func aRefusingPlanChangesNothingAndAFailingApplyFailsItsGroupOnly(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Self.migrations)
        defer { withExtendedLifetime(fixture) {} }
        let store = fixture.store
        try store.write {
            try $0.connection.execute(SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (0, 'taken')"), [])
        }
        // Every third plan refuses; every fifth apply inserts its row and then fails in the
        // store (a second row with a taken label), which fails the rest of its group.
        let outcomes = Mutex<[Int: Result<Int, any Error>]>([:])
        let settled = DispatchGroup()
        for index in 1...60 {
            settled.enter()
            let write = StoreWrite { reading -> Int in
                _ = try reading.connection.queryFirst(SQLStatement(oneOff: "SELECT count(*) FROM scratch"), [])
                if index % 3 == 0 { throw Refused() }
                return index
            } apply: { id, transaction throws(StoreError) in
                _ = try transaction.connection.execute(
                    SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (?, ?)"),
                    [.integer(Int64(id)), .text("row \(id)")]
                )
                if id % 5 == 0 {
                    _ = try transaction.connection.execute(
                        SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (?, 'taken')"),
                        [.integer(Int64(1000 + id))]
                    )
                }
                return id
            }
            store.write(write) { result in
                outcomes.withLock { $0[index] = result }
                settled.leave()
            }
        }
        settled.wait()
        let stored = try ids(store)
        for (index, outcome) in outcomes.withLock({ $0 }) {
            switch outcome {
            case .success(let id):
                #expect(id == index && index % 3 != 0 && index % 5 != 0 && stored.contains(index), "\(index)")
            case .failure(let error):
                #expect(!stored.contains(index) && !stored.contains(1000 + index), "\(index)")
                // Its plan's refusal, or the failure of a group it was in before its plan ran.
                #expect(error is StoreError || (error is Refused && index % 3 == 0), "\(index)")
                if index % 5 == 0 && index % 3 != 0 { #expect(error is StoreError, "\(index)") }
            }
        }
        #expect(outcomes.withLock { $0.count } == 60)
        #expect(stored.isSubset(of: Set(0...60)))

        // Alone and synchronously: the refusal is thrown, and nothing of it is stored.
        #expect(throws: Refused.self) {
            try store.write(
                StoreWrite { _ -> Int in
                    throw Refused()
                } apply: { _, transaction throws(StoreError) in
                    try transaction.connection.execute(
                        SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (100, 'alone')"),
                        []
                    )
                }
            )
        }
        #expect(try !ids(store).contains(100))
    }

    @Test(arguments: StoreKind.allCases)
    func aPlansReadsHoldUntilItsChangesCommit(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Self.migrations)
        defer { withExtendedLifetime(fixture) {} }
        let store = fixture.store
        // Each plan picks the next id from what it reads; concurrent writes never pick the same.
        let settled = DispatchGroup()
        let failures = Atomic<Int>(0)
        for _ in 1...40 {
            settled.enter()
            let write = StoreWrite { reading -> Int64 in
                try reading.connection.queryFirst(
                    SQLStatement(oneOff: "SELECT coalesce(max(id), 0) + 1 FROM scratch"),
                    []
                )?.int64(0) ?? 1
            } apply: { next, transaction throws(StoreError) in
                _ = try transaction.connection.execute(
                    SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (?, ?)"),
                    [.integer(next), .text("next \(next)")]
                )
            }
            store.write(write) { result in
                if case .failure = result { failures.add(1, ordering: .relaxed) }
                settled.leave()
            }
        }
        settled.wait()
        let failed = failures.load(ordering: .relaxed)
        #expect(failed == 0)
        #expect(try ids(store) == Set(1...40))
    }

    @Test(arguments: StoreKind.allCases)
    func theAfterCommitStepRunsOnlyOnceTheWriteIsDurableAndNeverForAFailedOne(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Self.migrations)
        defer { withExtendedLifetime(fixture) {} }
        let store = fixture.store
        let seenAfterCommit = try store.write(
            StoreWrite { _, transaction throws(StoreError) in
                try transaction.connection.execute(
                    SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (1, 'one')"),
                    []
                )
            } afterCommit: { changed in
                // Committed: a fresh read sees the row.
                (changed, try ids(store).contains(1))
            }
        )
        #expect(seenAfterCommit == (1, true))

        let ran = Atomic<Bool>(false)
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        store.write(
            StoreWrite { _, transaction throws(StoreError) in
                _ = try transaction.connection.execute(
                    SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (2, 'one')"),
                    []
                )
            } afterCommit: { _ in
                ran.store(true, ordering: .relaxed)
            }
        ) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        #expect(throws: StoreError.self) { try outcome.withLock { try $0?.get() } }
        let afterCommitRan = ran.load(ordering: .relaxed)
        #expect(!afterCommitRan)
    }
}
