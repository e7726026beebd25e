import Foundation
import HearthStore
import Testing

/// The store implementations the contract suite runs against. PostgreSQL joins when
/// `HEARTH_TEST_POSTGRES_URL` is set (added with that backend).
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case sqlite

    var testDescription: String { rawValue }
}

/// A fresh store in a temporary directory, removed when the fixture is released.
final class StoreFixture {
    let directory: URL
    let path: String
    private(set) var store: any Store

    init(_ kind: StoreKind, migrations: [Migration] = Schema.migrations) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("test.db").path
        switch kind {
        case .sqlite:
            store = try SQLiteStore(SQLiteStore.Configuration(path: path), migrations: migrations)
        }
    }

    /// Stores the project `demo-project`, which the areas' rows belong to.
    func addDemoProject() throws {
        try store.write { transaction in
            try transaction.saveProject(id: "demo-project", number: "100000000000", document: "{}", at: 1)
        }
    }

    /// Closes and opens the same database again, as a restart would.
    func reopen(migrations: [Migration] = Schema.migrations) throws {
        store.close()
        store = try SQLiteStore(SQLiteStore.Configuration(path: path), migrations: migrations)
    }

    deinit {
        store.close()
        try? FileManager.default.removeItem(at: directory)
    }
}
