import Dispatch
import Foundation
import HearthStore
import Synchronization
import Testing

/// The behaviour every `Store` implementation must show (see the `Store` protocol).
@Suite struct StoreContractTests {
    private static let scratchTable = Migration(
        version: 1000,
        name: "scratch table for contract tests",
        sql: "CREATE TABLE scratch (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE, payload BYTES)"
    )
    private static let migrations = Schema.migrations + [scratchTable]

    private func insert(_ store: any Store, id: Int64, label: String) throws {
        _ = try store.write { transaction in
            try transaction.connection.execute(
                SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (?, ?)"),
                [.integer(id), .text(label)]
            )
        }
    }

    private func labels(_ store: any Store) throws -> [String] {
        try store.read { transaction in
            try transaction.connection.query(SQLStatement(oneOff: "SELECT label FROM scratch ORDER BY id"), []).map {
                $0.string(0)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aReadSeesEveryWriteAcknowledgedBeforeItEvenRightAfterAnother(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Self.migrations)
        func count() throws -> Int {
            try fixture.store.read { transaction in
                try transaction.connection.queryFirst(SQLStatement(oneOff: "SELECT count(*) FROM scratch"), [])?.int(0)
                    ?? -1
            }
        }
        #expect(try count() == 0)
        for id in 1...50 {
            try insert(fixture.store, id: Int64(id), label: "label \(id)")
            #expect(try count() == id)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aWriteIsVisibleToLaterReadsAndItsResultIsReturned(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Self.migrations)
        let changed = try fixture.store.write { transaction in
            try transaction.connection.execute(
                SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (1, 'one')"),
                []
            )
        }
        #expect(changed == 1)
        #expect(try labels(fixture.store) == ["one"])
    }

    /// A connection keeps what it prepared for a statement, found by the statement's identity,
    /// and prepares a one-off afresh each time; run alternately, with the one-offs' values
    /// written into their text, each runs as written.
    @Test(arguments: StoreKind.allCases)
    func keptStatementsAndOneOffsBothRunAsWritten(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Self.migrations)
        let insert = SQLStatement("INSERT INTO scratch (id, label) VALUES (?, ?)")
        let select = SQLStatement("SELECT label FROM scratch WHERE id = ?")
        try fixture.store.write { transaction in
            for id in 0..<200 {
                if id.isMultiple(of: 2) {
                    try transaction.connection.execute(insert, [.integer(Int64(id)), .text("kept \(id)")])
                } else {
                    try transaction.connection.execute(
                        SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (\(id), 'one-off \(id)')"),
                        []
                    )
                }
            }
        }
        let labels = try fixture.store.read { reading in
            try (0..<200).map { id in
                let row =
                    if id.isMultiple(of: 3) {
                        try reading.connection.queryFirst(select, [.integer(Int64(id))])
                    } else {
                        try reading.connection.queryFirst(
                            SQLStatement(oneOff: "SELECT label FROM scratch WHERE id = \(id)"),
                            []
                        )
                    }
                return row?.string(0)
            }
        }
        #expect(labels == (0..<200).map { $0.isMultiple(of: 2) ? "kept \($0)" : "one-off \($0)" })
    }

    // Text never holds NUL: PostgreSQL refuses it, so the domain rejects it at the edge.
    @Test(arguments: StoreKind.allCases)
    func valuesOfEveryKindRoundTrip(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Self.migrations)
        let payload: [UInt8] = [0, 1, 2, 255, 0, 128]
        try fixture.store.write { transaction in
            try transaction.connection.execute(
                SQLStatement(oneOff: "INSERT INTO scratch (id, label, payload) VALUES (?, ?, ?)"),
                [.integer(Int64.max), .text("ünïcødé ✓ x"), .blob(payload)]
            )
            try transaction.connection.execute(
                SQLStatement(oneOff: "INSERT INTO scratch (id, label, payload) VALUES (?, ?, ?)"),
                [.integer(Int64.min), .text(""), .blob([])]
            )
        }
        let rows = try fixture.store.read {
            try $0.connection.query(SQLStatement(oneOff: "SELECT id, label, payload FROM scratch ORDER BY id"), [])
        }
        #expect(rows.count == 2)
        #expect(rows[0].int64(0) == Int64.min)
        #expect(rows[0].string(1) == "")
        #expect(rows[0].bytes(2) == [])
        #expect(rows[1].int64(0) == Int64.max)
        #expect(rows[1].string(1) == "ünïcødé ✓ x")
        #expect(rows[1].bytes(2) == payload)
    }

    @Test(arguments: StoreKind.allCases)
    func aFailingWriteChangesNothingAndOthersInItsGroupStillCommit(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Self.migrations)
        let store = fixture.store
        struct Refused: Error {}
        let outcomes = Mutex<[Int: Bool]>([:])
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            do {
                try store.write { transaction in
                    try transaction.connection.execute(
                        SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (?, ?)"),
                        [.integer(Int64(index)), .text("row \(index)")]
                    )
                    if index % 3 == 0 { throw Refused() }
                }
                outcomes.withLock { $0[index] = true }
            } catch {
                #expect(error is Refused)
                outcomes.withLock { $0[index] = false }
            }
        }
        let expected = (0..<40).filter { $0 % 3 != 0 }.map { "row \($0)" }
        #expect(try labels(store).sorted() == expected.sorted())
        #expect(outcomes.withLock { $0.filter(\.value).count } == expected.count)
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentWritesShareCommits(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Self.migrations)
        let store = fixture.store
        let before = store.statistics
        // Each write holds the writer for a moment while 40 threads (more than the cores,
        // so they really wait at the same time) queue up behind it.
        let group = DispatchGroup()
        for thread in 0..<40 {
            group.enter()
            Thread.detachNewThread {
                for round in 0..<5 {
                    let index = thread * 5 + round
                    try? store.write { transaction in
                        try transaction.connection.execute(
                            SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (?, ?)"),
                            [.integer(Int64(index)), .text("row \(index)")]
                        )
                        usleep(200)
                    }
                }
                group.leave()
            }
        }
        group.wait()
        let after = store.statistics
        #expect(try labels(store).count == 200)
        #expect(after.writes - before.writes == 200)
        #expect(after.commits - before.commits < 200)
    }

    @Test(arguments: StoreKind.allCases)
    func aUniqueViolationIsReportedAsSuch(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Self.migrations)
        try insert(fixture.store, id: 1, label: "same")
        #expect {
            try insert(fixture.store, id: 2, label: "same")
        } throws: { error in
            (error as? StoreError)?.kind == .uniqueViolation
        }
        #expect(try labels(fixture.store) == ["same"])
    }

    @Test(arguments: StoreKind.allCases)
    func queuedWritesAreAppliedBeforeLaterWrites(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Self.migrations)
        for index in 0..<10 {
            fixture.store.enqueueWrite { transaction in
                try transaction.connection.execute(
                    SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (?, ?)"),
                    [.integer(Int64(index)), .text("queued \(index)")]
                )
            }
        }
        try insert(fixture.store, id: 100, label: "waited")
        #expect(try labels(fixture.store).count == 11)
    }

    @Test(arguments: StoreKind.allCases)
    func readsDoNotWaitForASlowWrite(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Self.migrations)
        let store = fixture.store
        try insert(store, id: 1, label: "before")
        let writeStarted = DispatchSemaphore(value: 0)
        let writeDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? store.write { transaction in
                try transaction.connection.execute(
                    SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (2, 'slow')"),
                    []
                )
                writeStarted.signal()
                usleep(500_000)
            }
            writeDone.signal()
        }
        writeStarted.wait()
        let clock = ContinuousClock()
        let started = clock.now
        let seen = try labels(store)
        let elapsed = clock.now - started
        // The uncommitted row is invisible and the read did not wait for the writer.
        #expect(seen == ["before"])
        #expect(elapsed < .milliseconds(400))
        writeDone.wait()
        #expect(try labels(store) == ["before", "slow"])
    }

    @Test(arguments: StoreKind.allCases)
    func acknowledgedWritesSurviveReopening(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Self.migrations)
        for index in 0..<25 { try insert(fixture.store, id: Int64(index), label: "row \(index)") }
        try fixture.reopen(migrations: Self.migrations)
        #expect(try labels(fixture.store).count == 25)
    }

    @Test(arguments: StoreKind.allCases)
    func aClosedStoreRefusesWork(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Self.migrations)
        fixture.store.close()
        #expect(throws: StoreError.self) { try insert(fixture.store, id: 1, label: "late") }
        #expect(throws: StoreError.self) { try labels(fixture.store) }
    }

    @Test(arguments: StoreKind.allCases)
    func aSchemaNewerThanTheBinaryIsRefused(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Self.migrations)
        #expect {
            try fixture.reopen(migrations: Schema.migrations)
        } throws: { error in
            (error as? StoreError)?.kind == .incompatibleSchema
        }
    }

    @Test(arguments: StoreKind.allCases)
    func migrationsAreRecordedOnce(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Self.migrations)
        try fixture.reopen(migrations: Self.migrations)
        let versions = try fixture.store.read {
            try $0.connection.query(SQLStatement(oneOff: "SELECT version FROM schema_migrations ORDER BY version"), [])
                .map { $0.int64(0) }
        }
        #expect(versions == Self.migrations.map { Int64($0.version) })
    }

    /// Areas number their steps in their own ranges, so a new step can sort below steps a
    /// database already has: it must still be applied (once), not skipped.
    @Test(arguments: StoreKind.allCases)
    func aStepAddedBelowTheDatabasesNewestIsApplied(kind: StoreKind) throws {
        let later = Migration(version: 1002, name: "later area", sql: "CREATE TABLE later_area (id BIGINT)")
        let added = Migration(version: 1001, name: "added step", sql: "CREATE TABLE added_step (id BIGINT)")
        let fixture = try StoreFixture(kind, migrations: Self.migrations + [later])
        try fixture.reopen(migrations: Self.migrations + [added, later])
        try fixture.reopen(migrations: Self.migrations + [added, later])
        let versions = try fixture.store.read {
            try $0.connection.query(
                SQLStatement(oneOff: "SELECT version FROM schema_migrations WHERE version > 1000 ORDER BY version"),
                []
            )
            .map { $0.int64(0) }
        }
        #expect(versions == [1001, 1002])
        try fixture.store.write {
            try $0.connection.execute(SQLStatement(oneOff: "INSERT INTO added_step (id) VALUES (1)"), [])
        }
    }
}

@Suite struct StoreAsyncWriteContractTests {
    /// A store with a scratch table whose labels are unique.
    private static func fixture(_ kind: StoreKind) throws -> StoreFixture {
        try StoreFixture(
            kind,
            migrations: Schema.migrations + [
                Migration(
                    version: 1000,
                    name: "scratch",
                    sql: "CREATE TABLE scratch (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE)"
                )
            ]
        )
    }

    @Test(arguments: StoreKind.allCases)
    func anAsynchronousWriteCompletesAfterItsCommitWithItsResultOrError(kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let store = fixture.store
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Int, any Error>?>(nil)
        store.write({ transaction in
            try transaction.connection.execute(
                SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (1, 'one')"),
                []
            )
        }) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        #expect(try outcome.withLock { try $0?.get() } == 1)
        // Visible to a read as soon as the completion has run.
        #expect(
            try store.read {
                try $0.connection.query(SQLStatement(oneOff: "SELECT label FROM scratch"), []).map { $0.string(0) }
            } == ["one"]
        )

        store.write({ transaction in
            try transaction.connection.execute(
                SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (2, 'one')"),
                []
            )
        }) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        #expect(throws: StoreError.self) { try outcome.withLock { try $0?.get() } }
    }
}
