import Foundation
import HearthStore
import HearthTestSupport
import Synchronization
import Testing

/// The store on a small tmpfs that fills up: writes are refused with an error the server
/// answers 503 (`isUnavailable`), the cause is reported once for the episode (no rollback
/// errors), and once space is freed writes are taken again with nothing acknowledged lost.
@Suite struct DiskFullTests {
    @Test("a full disk refuses writes as unavailable, reports once, and every acknowledged write is found after")
    func aFullDiskRefusesWritesAndRecovers() throws {
        guard let disk = try SmallDisk.mount(megabytes: 3, label: "disk full") else { return }
        defer { disk.unmount() }

        let reports = Mutex<[String]>([])
        let store = try SQLiteStore(
            SQLiteStore.Configuration(path: disk.directory.appendingPathComponent("hearth.db").path),
            migrations: [
                Migration(version: 1, name: "rows", sql: "CREATE TABLE rows (id INTEGER PRIMARY KEY, v TEXT)")
            ],
            report: { line in reports.withLock { $0.append(line) } }
        )
        defer { store.close() }
        let value = String(repeating: "x", count: 2_000)
        var acknowledged: [Int64] = []
        var refused = 0
        var otherErrors = 0
        func write(_ id: Int64) {
            do {
                try store.write {
                    try $0.connection.execute(
                        SQLStatement(oneOff: "INSERT INTO rows (id, v) VALUES (?, ?)"),
                        [.integer(id), .text(value)]
                    )
                }
                acknowledged.append(id)
            } catch let error as StoreError where error.isUnavailable {
                refused += 1
            } catch {
                otherErrors += 1
            }
        }
        for id in 0..<50 { write(Int64(id)) }
        disk.fill()
        for id in 50..<250 { write(Int64(id)) }
        let refusedWhileFull = refused
        disk.free()
        for id in 250..<300 { write(Int64(id)) }

        let found = Set(
            try store.read {
                try $0.connection.query(SQLStatement(oneOff: "SELECT id FROM rows"), []).map { $0.int64(0) }
            }
        )
        let lost = acknowledged.filter { !found.contains($0) }
        let lines = reports.withLock { $0 }
        let causes = lines.filter { $0.hasPrefix("the store cannot write") }.count
        let rollbacks = lines.filter { $0.contains("rollback failed") }.count
        print(
            "disk full: 300 writes, \(acknowledged.count) acknowledged, \(found.count) found, \(lost.count) lost; "
                + "\(refusedWhileFull) refused as unavailable while full, \(otherErrors) other errors; "
                + "\(causes) cause reports, \(rollbacks) rollback failures, report lines: \(lines.count)"
        )
        #expect(refusedWhileFull > 0, "the tmpfs never filled")
        #expect(otherErrors == 0)
        #expect(lost.isEmpty)
        #expect(found.count == acknowledged.count)
        #expect(causes >= 1 && causes <= 2)
        #expect(rollbacks == 0)
        #expect(acknowledged.contains(299), "writes are taken again once space is freed")
    }
}
