import Foundation
import HearthStore
import Testing

/// Checkpoints run off the writer's thread; the write-ahead log must still stop growing
/// under a load that never pauses.
@Suite struct SQLiteCheckpointTests {
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
        configuration.rewindFrames = 64
        let store = try SQLiteStore(configuration, migrations: Schema.migrations + [Self.scratchTable])
        defer { store.close() }

        // Each write adds about two pages; 3000 of them would make a log of ~6000 frames
        // (24 MiB) if it never rewound.
        let payload = [UInt8](repeating: 7, count: 6000)
        for id in 1...3000 {
            try store.write { transaction in
                try transaction.connection.execute(
                    "INSERT INTO scratch (id, payload) VALUES (?, ?)",
                    [.integer(Int64(id)), .blob(payload)]
                )
            }
        }
        let logBytes = try FileManager.default.attributesOfItem(atPath: configuration.path + "-wal")[.size] as? Int ?? 0
        #expect(logBytes < 4 << 20, "write-ahead log grew to \(logBytes) bytes")
        let rows = try store.readStatement { try $0.connection.queryFirst("SELECT count(*) FROM scratch", [])?.int(0) }
        #expect(rows == 3000)
    }
}
