import Foundation
import HearthStore

/// A fresh SQLite store in a temporary directory for one test, removed afterwards.
final class TemporaryStore {
    let directory: URL
    let store: SQLiteStore

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-core-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(SQLiteStore.Configuration(path: directory.appendingPathComponent("core.db").path))
    }

    deinit {
        store.close()
        try? FileManager.default.removeItem(at: directory)
    }
}
