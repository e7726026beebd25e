import Dispatch
import Foundation
import HearthTestSupport
import Synchronization
import Testing

@testable import HearthStore

/// What the PostgreSQL store adds to the contract: it rides out a server restart (failing fast
/// as unavailable meanwhile, recovering by itself, keeping every acknowledged write), runs a
/// group that lost a deadlock again, turns a statement timeout into unavailable, and lets
/// only one of several nodes starting at once apply each migration.
@Suite(.enabled(if: PostgresTestServer.url != nil, "needs HEARTH_TEST_POSTGRES_URL"))
struct PostgresStoreTests {
    private static let scratch = Migration(
        version: 1000,
        name: "scratch",
        sql: "CREATE TABLE scratch (id INTEGER PRIMARY KEY, label TEXT NOT NULL)"
    )

    @Test func theStoreRidesOutAServerRestartAndKeepsEveryAcknowledgedWrite() throws {
        let cluster = try PostgreSQLCluster(ports: 55510...55519)
        var configuration = PostgresStore.Configuration(url: cluster.url)
        configuration.connectTimeoutSeconds = 2
        configuration.reconnectIntervalMilliseconds = 100
        let store = try PostgresStore(configuration, migrations: Schema.migrations + [Self.scratch])
        defer { store.close() }

        // A writer and a reader keep going through the restart; every failure must be a 503.
        let acknowledged = Mutex<[Int64]>([])
        let otherErrors = Mutex<[String]>([])
        let running = Atomic<Bool>(true)
        let load = DispatchGroup()
        DispatchQueue.global().async(group: load) {
            var id: Int64 = 0
            while running.load(ordering: .relaxed) {
                id += 1
                do {
                    try store.write { [id] in
                        try $0.connection.execute(
                            SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (?, 'x')"),
                            [.integer(id)]
                        )
                    }
                    acknowledged.withLock { $0.append(id) }
                } catch let error as StoreError where error.isUnavailable {
                    usleep(5_000)
                } catch {
                    otherErrors.withLock { $0.append("write: \(error)") }
                }
            }
        }
        DispatchQueue.global().async(group: load) {
            while running.load(ordering: .relaxed) {
                do {
                    _ = try store.read {
                        try $0.connection.queryFirst(SQLStatement(oneOff: "SELECT count(*) FROM scratch"), [])
                    }
                } catch let error as StoreError where error.isUnavailable {
                    usleep(5_000)
                } catch {
                    otherErrors.withLock { $0.append("read: \(error)") }
                }
            }
        }
        try waitUntil { acknowledged.withLock { $0.count } >= 50 }

        try cluster.stop()
        let clock = ContinuousClock()
        for _ in 0..<5 {
            let started = clock.now
            #expect {
                try store.write {
                    try $0.connection.execute(
                        SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (-1, 'down')"),
                        []
                    )
                }
            } throws: { error in
                (error as? StoreError)?.isUnavailable == true
            }
            #expect {
                try store.read { try $0.connection.queryFirst(SQLStatement(oneOff: "SELECT 1"), []) }
            } throws: { error in
                (error as? StoreError)?.isUnavailable == true
            }
            #expect(clock.now - started < .seconds(1), "fails fast while the server is down")
        }
        #expect {
            try PostgresStore(configuration, migrations: Schema.migrations + [Self.scratch])
        } throws: { error in
            (error as? StoreError)?.isUnavailable == true
        }
        let beforeRestart = acknowledged.withLock { $0.count }

        try cluster.start()
        try waitUntil { acknowledged.withLock { $0.count } >= beforeRestart + 50 }
        running.store(false, ordering: .relaxed)
        load.wait()

        let stored = Set(
            try store.read {
                try $0.connection.query(SQLStatement(oneOff: "SELECT id FROM scratch"), []).map { $0.int64(0) }
            }
        )
        let written = acknowledged.withLock { $0 }
        #expect(written.allSatisfy(stored.contains), "every acknowledged write is there after the restart")
        #expect(otherErrors.withLock { $0 }.isEmpty, "\(otherErrors.withLock { $0.prefix(3) })")
    }

    @Test func aStatementAPausedServerDoesNotAnswerFailsWithinTheAnswerTimeoutAndTheStoreRecovers() throws {
        let cluster = try PostgreSQLCluster(ports: 55540...55549)
        var configuration = PostgresStore.Configuration(url: cluster.url)
        configuration.answerTimeoutMilliseconds = 500
        configuration.connectTimeoutSeconds = 2
        // The probe stays out of it: this is about a statement already sent.
        configuration.probeIntervalMilliseconds = 600_000
        let store = try PostgresStore(configuration)
        defer { store.close() }
        let question = SQLStatement(oneOff: "SELECT 1")
        _ = try store.read { try $0.connection.queryFirst(question, []) }

        try cluster.pause()
        // Without the answer timeout the read would wait for this.
        let resumed = DispatchGroup()
        DispatchQueue.global().async(group: resumed) {
            sleep(5)
            try? cluster.resume()
        }
        defer { resumed.wait() }
        let clock = ContinuousClock()
        let asked = clock.now
        #expect {
            try store.read { try $0.connection.queryFirst(question, []) }
        } throws: { error in
            (error as? StoreError)?.isUnavailable == true
        }
        let waited = clock.now - asked
        #expect(waited >= .milliseconds(450) && waited < .seconds(3), "the read failed after \(waited)")

        resumed.wait()
        try waitUntil { (try? store.read { try $0.connection.queryFirst(question, []) }) != nil }
    }

    @Test func aGroupThatLosesADeadlockIsRunAgain() throws {
        let fixture = try StoreFixture(.postgres, migrations: Schema.migrations + [Self.scratch])
        let url = try #require(fixture.databaseURL)
        try fixture.store.write {
            try $0.connection.execute(
                SQLStatement(oneOff: "INSERT INTO scratch (id, label) VALUES (1, 'a'), (2, 'b')"),
                []
            )
        }
        // A second node on the same database.
        let other = try PostgresStore(
            PostgresStore.Configuration(url: url),
            migrations: Schema.migrations + [Self.scratch]
        )
        defer { other.close() }
        let attempts = Atomic<Int>(0)
        let firstLocked = DispatchSemaphore(value: 0)
        let secondLocked = DispatchSemaphore(value: 0)
        /// Locks `first`, waits (on its first run) for the other to lock the other row, then
        /// takes that one too: the two transactions wait for each other.
        @Sendable func crossing(_ first: Int64, _ second: Int64, mine: DispatchSemaphore, theirs: DispatchSemaphore)
            -> @Sendable (WriteTransaction) throws -> Void
        {
            { transaction in
                let attempt = attempts.add(1, ordering: .relaxed).newValue
                try transaction.connection.execute(
                    SQLStatement(oneOff: "UPDATE scratch SET label = 'x' WHERE id = ?"),
                    [.integer(first)]
                )
                if attempt <= 2 {
                    mine.signal()
                    _ = theirs.wait(timeout: .now() + 5)
                }
                try transaction.connection.execute(
                    SQLStatement(oneOff: "UPDATE scratch SET label = 'y' WHERE id = ?"),
                    [.integer(second)]
                )
            }
        }
        let outcomes = Mutex<[String]>([])
        let group = DispatchGroup()
        for (store, first, second, mine, theirs) in [
            (fixture.store, Int64(1), Int64(2), firstLocked, secondLocked),
            (other as any Store, Int64(2), Int64(1), secondLocked, firstLocked),
        ] {
            DispatchQueue.global().async(group: group) {
                do {
                    try store.write(crossing(first, second, mine: mine, theirs: theirs))
                    outcomes.withLock { $0.append("ok") }
                } catch {
                    outcomes.withLock { $0.append("\(error)") }
                }
            }
        }
        group.wait()
        #expect(outcomes.withLock { $0 } == ["ok", "ok"])
        // The loser runs again at least once. Its new transaction can also lock its first row
        // before the winner, woken by the rollback, takes it: that crosses them once more, and the
        // new loser runs again too. So three runs or more, within the retries allowed.
        let runs = attempts.load(ordering: .relaxed)
        #expect((3...2 + PostgresStore.Configuration(url: url).conflictRetries).contains(runs), "\(runs) runs")
    }

    @Test func aStatementPastItsTimeoutIsUnavailable() throws {
        let url = try PostgresTestServer.createDatabase()
        defer { PostgresTestServer.dropDatabase(url) }
        var configuration = PostgresStore.Configuration(url: url)
        configuration.statementTimeoutMilliseconds = 200
        let store = try PostgresStore(configuration)
        defer { store.close() }
        #expect {
            try store.read { try $0.connection.queryFirst(SQLStatement(oneOff: "SELECT pg_sleep(2)"), []) }
        } throws: { error in
            (error as? StoreError)?.kind == .unavailable
        }
        #expect(
            try store.read { try $0.connection.queryFirst(SQLStatement(oneOff: "SELECT 41 + 1"), [])?.int(0) } == 42
        )
    }

    @Test func aWatchingNodeHearsAnnouncedChangesOnceTheyCommitAndAfterTheServerRestarts() throws {
        let cluster = try PostgreSQLCluster(ports: 55530...55539)
        var configuration = PostgresStore.Configuration(url: cluster.url)
        configuration.reconnectIntervalMilliseconds = 100
        let writer = try PostgresStore(configuration)
        defer { writer.close() }
        let watcher = try PostgresStore(configuration)
        defer { watcher.close() }
        let heard = Atomic<Int>(0)
        watcher.watch(.projects) { heard.add(1, ordering: .relaxed) }
        try waitUntil { heard.load(ordering: .relaxed) == 1 }  // once listening: whatever it missed

        // Heard at its commit; a write that announces and then fails is never heard.
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try writer.write { transaction in
                try transaction.announce(.projects)
                throw Refused()
            }
        }
        let clock = ContinuousClock()
        let committed = clock.now
        try writer.write { try $0.saveProject(id: "p", number: "1", document: "{}", at: 0) }
        try waitUntil { heard.load(ordering: .relaxed) == 2 }
        let delay = clock.now - committed
        #expect(delay < .seconds(1), "heard after \(delay)")

        // The server restarts: the watcher listens again and reports the gap once.
        try cluster.restart()
        try waitUntil { heard.load(ordering: .relaxed) == 3 }
        try waitUntil {
            (try? writer.write { try $0.deleteProject(id: "p") }) != nil
        }
        try waitUntil { heard.load(ordering: .relaxed) == 4 }
        print("store watch: heard \(heard.load(ordering: .relaxed)) times, the change \(delay) after its commit")
    }

    @Test func theURLsOwnOptionsReachTheServerOverHearthsDefaults() throws {
        let url = try PostgresTestServer.createDatabase()
        defer { PostgresTestServer.dropDatabase(url) }
        let settings = SQLStatement(
            oneOff: "SELECT current_setting('application_name'), current_setting('statement_timeout')"
        )
        func read(_ url: String) throws -> [String] {
            let store = try PostgresStore(PostgresStore.Configuration(url: url))
            defer { store.close() }
            let row = try #require(try store.read { try $0.connection.queryFirst(settings, []) })
            return [row.string(0), row.string(1)]
        }
        #expect(try read(url) == ["hearth", "10s"])
        #expect(
            try read(url + "?application_name=node-7&options=-c%20statement_timeout%3D2500")
                == ["node-7", "2500ms"]
        )
        // The test server has no TLS: a URL that requires it is refused, not quietly served in the clear.
        #expect {
            try PostgresStore(PostgresStore.Configuration(url: url + "?sslmode=require"))
        } throws: { error in
            "\(error)".contains("SSL")
        }
    }

    @Test func nodesStartingTogetherApplyEachMigrationOnce() throws {
        // Applied twice, the step would fail (the table exists) and count two rows.
        let once = Migration(
            version: 1000,
            name: "applied once",
            sql: "CREATE TABLE applied_once (node BIGINT); INSERT INTO applied_once VALUES (1);"
        )
        for _ in 0..<3 {
            let url = try PostgresTestServer.createDatabase()
            defer { PostgresTestServer.dropDatabase(url) }
            let stores = Mutex<[any Store]>([])
            let errors = Mutex<[String]>([])
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for _ in 0..<3 {
                DispatchQueue.global().async(group: group) {
                    start.wait()
                    do {
                        let store = try PostgresStore(
                            PostgresStore.Configuration(url: url),
                            migrations: Schema.migrations + [once]
                        )
                        stores.withLock { $0.append(store) }
                    } catch {
                        errors.withLock { $0.append("\(error)") }
                    }
                }
            }
            for _ in 0..<3 { start.signal() }
            group.wait()
            let opened = stores.withLock { $0 }
            defer { for store in opened { store.close() } }
            #expect(errors.withLock { $0 }.isEmpty, "\(errors.withLock { $0 })")
            let store = try #require(opened.first)
            #expect(
                try store.read {
                    try $0.connection.queryFirst(SQLStatement(oneOff: "SELECT count(*) FROM applied_once"), [])?.int(0)
                } == 1
            )
            let versions = try store.read {
                try $0.connection.query(
                    SQLStatement(oneOff: "SELECT version FROM schema_migrations ORDER BY version"),
                    []
                ).map { $0.int(0) }
            }
            #expect(versions == (Schema.migrations + [once]).map(\.version))
        }
    }

    /// Waits (polling) until `condition` holds, or fails after `seconds`.
    private func waitUntil(seconds: Double = 30, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else {
                Issue.record("timed out waiting")
                return
            }
            usleep(10_000)
        }
    }
}
