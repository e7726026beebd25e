import Foundation
import Testing

@testable import HearthStore

/// The store implementations the contract suite runs against. PostgreSQL joins when
/// `HEARTH_TEST_POSTGRES_URL` names a server to make databases on (`scripts/test` sets it).
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    static var allCases: [StoreKind] { PostgresTestServer.url == nil ? [.sqlite] : [.sqlite, .postgres] }

    var testDescription: String { rawValue }
}

/// A fresh store: a SQLite file in a temporary directory, or a PostgreSQL database of its own
/// on the test server; removed when the fixture is released.
final class StoreFixture {
    let kind: StoreKind
    let directory: URL
    let path: String
    /// The PostgreSQL database's URL (`nil` for SQLite).
    let databaseURL: String?
    private(set) var store: any Store

    init(_ kind: StoreKind, migrations: [Migration] = Schema.migrations) throws {
        self.kind = kind
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("test.db").path
        switch kind {
        case .sqlite:
            databaseURL = nil
            store = try SQLiteStore(SQLiteStore.Configuration(path: path), migrations: migrations)
        case .postgres:
            let url = try PostgresTestServer.createDatabase()
            databaseURL = url
            do {
                store = try PostgresStore(PostgresStore.Configuration(url: url), migrations: migrations)
            } catch {
                PostgresTestServer.dropDatabase(url)
                throw error
            }
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
        if let databaseURL {
            store = try PostgresStore(PostgresStore.Configuration(url: databaseURL), migrations: migrations)
        } else {
            store = try SQLiteStore(SQLiteStore.Configuration(path: path), migrations: migrations)
        }
    }

    deinit {
        store.close()
        if let databaseURL { PostgresTestServer.dropDatabase(databaseURL) }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// The PostgreSQL server of `HEARTH_TEST_POSTGRES_URL`, where each fixture gets a database.
enum PostgresTestServer {
    static let url = ProcessInfo.processInfo.environment["HEARTH_TEST_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Runs statements outside any transaction (`CREATE DATABASE` refuses to run in one) on
    /// the server of `url`.
    static func administer(_ sql: String, on url: String) throws(StoreError) {
        let connection = try PostgresConnection(
            parameters: [("dbname", url)],
            availability: PostgresServerAvailability(retryIntervalMilliseconds: 0),
            answerTimeoutMilliseconds: 60_000
        )
        try connection.executeScript(sql)
    }

    /// Makes an empty database `hstore_<uuid>` and answers its URL.
    static func createDatabase() throws -> String {
        guard let url else { throw StoreError(.cannotOpen, "HEARTH_TEST_POSTGRES_URL is not set") }
        let name = "hstore_" + UUID().uuidString.lowercased().replacing("-", with: "")
        try administer("CREATE DATABASE \(name)", on: url)
        return try databaseURL(url, named: name)
    }

    static func dropDatabase(_ databaseURL: String) {
        guard let url, let components = URLComponents(string: databaseURL) else { return }
        let name = components.path.dropFirst()
        try? administer("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", on: url)
    }

    /// `url` with its database replaced by `name`.
    static func databaseURL(_ url: String, named name: String) throws -> String {
        guard var components = URLComponents(string: url) else {
            throw StoreError(.cannotOpen, "HEARTH_TEST_POSTGRES_URL is not a URL: \(url)")
        }
        components.path = "/" + name
        guard let result = components.string else { throw StoreError(.cannotOpen, "cannot name the database") }
        return result
    }
}
