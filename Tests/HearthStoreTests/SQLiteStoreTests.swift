import Dispatch
import Foundation
import Synchronization
import Testing

@testable import HearthStore

/// What the SQLite store adds to the contract: checkpoints off the writer's thread (the log
/// must still stop growing under a load that never pauses) and read snapshots kept open
/// between reads (they must still see every commit, also another process's).
@Suite struct SQLiteStoreTests {
    private static let scratchTable = Migration(
        version: 1000,
        name: "scratch table for checkpoint tests",
        sql: "CREATE TABLE scratch (id INTEGER PRIMARY KEY, payload BYTES NOT NULL)"
    )

    @Test func theLogRewindsUnderWritesThatNeverPause() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-wal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = SQLiteStore.Configuration(path: directory.appendingPathComponent("test.db").path)
        configuration.checkpointIntervalMilliseconds = 10
        let store = try SQLiteStore(configuration, migrations: Schema.migrations + [Self.scratchTable])
        defer { store.close() }

        // Each write adds about two pages; 6000 of them would make a log of ~12000 frames
        // (48 MiB) if it never started over.
        // Two threads keep reading meanwhile: their snapshots must not hold the log back.
        let payload = [UInt8](repeating: 7, count: 6000)
        let writing = Atomic<Bool>(true)
        let readers = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: readers) {
                while writing.load(ordering: .relaxed) {
                    _ = try? store.read {
                        try $0.connection.queryFirst(SQLStatement(oneOff: "SELECT max(id) FROM scratch"), [])
                    }
                }
            }
        }
        for id in 1...6000 {
            try store.write { transaction in
                try transaction.connection.execute(
                    SQLStatement(oneOff: "INSERT INTO scratch (id, payload) VALUES (?, ?)"),
                    [.integer(Int64(id)), .blob(payload)]
                )
            }
            if id.isMultiple(of: 10) {
                #expect(
                    try store.read {
                        try $0.connection.queryFirst(SQLStatement(oneOff: "SELECT max(id) FROM scratch"), [])?.int(0)
                    } == id
                )
            }
        }
        writing.store(false, ordering: .relaxed)
        readers.wait()
        let logBytes = try FileManager.default.attributesOfItem(atPath: configuration.path + "-wal")[.size] as? Int ?? 0
        #expect(logBytes < 12 << 20, "write-ahead log grew to \(logBytes) bytes")
        let rows = try store.read {
            try $0.connection.queryFirst(SQLStatement(oneOff: "SELECT count(*) FROM scratch"), [])?.int(0)
        }
        #expect(rows == 6000)
    }

    /// SQLite marks the log index as in use with a shared lock on one of its bytes (the
    /// "dead-man switch"); a process that finds it unlocked treats the index as abandoned and
    /// truncates it, under the feet of every process still using it (which then crash with a
    /// bus error reading it, or corrupt it). POSIX locks belong to the process and die with
    /// any of its descriptors of the file closed, so Hearth must never open and close the
    /// index itself. A second process (Python) probes the lock after reads and writes.
    @Test func anotherProcessFindsTheLogIndexInUseWhileTheStoreIsOpen() throws {
        let fixture = try StoreFixture(.sqlite, migrations: Schema.migrations + [Self.scratchTable])
        let store = fixture.store
        for id in 1...3 {
            try store.write {
                try $0.connection.execute(
                    SQLStatement(oneOff: "INSERT INTO scratch (id, payload) VALUES (?, x'00')"),
                    [.integer(Int64(id))]
                )
            }
            _ = try store.read {
                try $0.connection.queryFirst(SQLStatement(oneOff: "SELECT count(*) FROM scratch"), [])
            }
        }
        // Byte 128 of the index: SQLite's unix VFS takes it shared in every process using it.
        let probe = """
            import fcntl, os, sys
            fd = os.open(sys.argv[1], os.O_RDWR)
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 128)
                print("free")
            except OSError:
                print("held")
            """
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: ProcessInfo.processInfo.environment["HEARTH_TEST_PYTHON"] ?? "/usr/bin/python3"
        )
        process.arguments = ["-c", probe, fixture.path + "-shm"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(answer.trimmingCharacters(in: .whitespacesAndNewlines) == "held")
    }

    /// Another process that opens and closes the database (the CLI, `sqlite3`) must find it in
    /// use, or it checkpoints and deletes the log under the store: the store's later commits
    /// would go to an unlinked file and be lost, and its reads would not see the other
    /// process's commits.
    @Test func anotherProcessThatOpensAndClosesTheDatabaseLeavesTheLogInPlace() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hearth-last-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("test.db").path
        let migrations = Schema.migrations + [Self.scratchTable]
        let insert = SQLStatement(oneOff: "INSERT INTO scratch (id, payload) VALUES (?, x'00')")
        let store = try SQLiteStore(SQLiteStore.Configuration(path: path), migrations: migrations)
        try store.write { try $0.connection.execute(insert, [.integer(1)]) }

        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: ProcessInfo.processInfo.environment["HEARTH_TEST_PYTHON"] ?? "/usr/bin/python3"
        )
        process.arguments = [
            "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('SELECT count(*) FROM scratch').fetchall(); c.close()",
            path,
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the log is still there")
        #expect(FileManager.default.fileExists(atPath: path + "-shm"), "its index is still there")

        try store.write { try $0.connection.execute(insert, [.integer(2)]) }
        store.close()
        let reopened = try SQLiteStore(SQLiteStore.Configuration(path: path), migrations: migrations)
        defer { reopened.close() }
        let count = try reopened.read {
            try $0.connection.queryFirst(SQLStatement(oneOff: "SELECT count(*) FROM scratch"), [])?.int(0)
        }
        #expect(count == 2, "the write after the other process closed is durable")
    }

    @Test func theLogIndexHeaderIsReadThroughSQLitesOwnMapAndChangesWithEveryCommit() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-shm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try SQLiteConnection(
            path: directory.appendingPathComponent("test.db").path,
            readOnly: false,
            busyTimeoutMilliseconds: 1000
        )
        try connection.executeScript("PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER);")
        let index = WriteAheadLogIndex(region: connection.mappedLogIndex())
        let before = try #require(index.header())
        try connection.execute(SQLStatement(oneOff: "INSERT INTO t VALUES (1)"), [])
        let after = try #require(index.header())
        #expect(after != before)
        #expect(index.header() == after)
    }

    @Test func aReadSeesWhatAnotherProcessCommittedRightBeforeIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-two-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("test.db").path
        let migrations = Schema.migrations + [Self.scratchTable]
        let server = try SQLiteStore(SQLiteStore.Configuration(path: path), migrations: migrations)
        defer { server.close() }
        // A second store on the same file stands in for the CLI writing while the server runs.
        let tool = try SQLiteStore(SQLiteStore.Configuration(path: path), migrations: migrations)
        defer { tool.close() }
        func serverCount() throws -> Int? {
            try server.read {
                try $0.connection.queryFirst(SQLStatement(oneOff: "SELECT count(*) FROM scratch"), [])?.int(0)
            }
        }
        #expect(try serverCount() == 0)
        for id in 1...200 {
            try tool.write { transaction in
                try transaction.connection.execute(
                    SQLStatement(oneOff: "INSERT INTO scratch (id, payload) VALUES (?, x'00')"),
                    [.integer(Int64(id))]
                )
            }
            #expect(try serverCount() == id)
            #expect(try serverCount() == id)
        }
    }

    @Test func anotherProcessCanTruncateTheLogSoonAfterReadsStop() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hearth-trunc-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("test.db").path
        let store = try SQLiteStore(
            SQLiteStore.Configuration(path: path),
            migrations: Schema.migrations + [Self.scratchTable]
        )
        defer { store.close() }
        for id in 1...200 {
            try store.write { transaction in
                try transaction.connection.execute(
                    SQLStatement(oneOff: "INSERT INTO scratch (id, payload) VALUES (?, x'00')"),
                    [.integer(Int64(id))]
                )
            }
        }
        // Quiet now: reads keep their snapshots open for a while, inside the log.
        Thread.sleep(forTimeInterval: 0.1)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<50 {
                _ = try? store.read {
                    try $0.connection.queryFirst(SQLStatement(oneOff: "SELECT count(*) FROM scratch"), [])
                }
            }
        }
        // Like the bench's bulk loader or a CLI: a second connection writes, then truncates
        // the log, waiting up to 2 s for readers.
        let other = try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: 2_000)
        try other.execute(SQLStatement(oneOff: "INSERT INTO scratch (id, payload) VALUES (1000, x'00')"), [])
        let result = try other.queryFirst(SQLStatement(oneOff: "PRAGMA wal_checkpoint(TRUNCATE)"), [])
        #expect(result?.int(0) == 0, "the checkpoint was blocked by readers")
        let logBytes = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? -1
        #expect(logBytes == 0)
    }
}
