public import Foundation

/// The database a test's `hearth` keeps its data in. With `HEARTH_TEST_DATABASE` unset or
/// `sqlite`, the SQLite file in the server's data directory (no flag). With
/// `HEARTH_TEST_DATABASE=postgres`, a database of its own, `e2e_<uuid>`, made on the server that
/// `HEARTH_TEST_POSTGRES_URL` names (`scripts/test` starts one) and dropped when this value is
/// released, so every test starts empty and none sees another's rows.
public final class TestDatabase: Sendable {
    /// Which database the end-to-end suite runs on.
    public enum Kind: String, Sendable {
        case sqlite
        case postgres
    }

    /// The run's kind, from `HEARTH_TEST_DATABASE`; `nil` when it names neither.
    public static let kind: Kind? = Kind(
        rawValue: ProcessInfo.processInfo.environment["HEARTH_TEST_DATABASE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? Kind.sqlite.rawValue
    )

    /// Whether this run keeps its data in PostgreSQL (for `.enabled(if:)` traits).
    public static var runsOnPostgreSQL: Bool { kind == .postgres }

    /// Debian's PostgreSQL 15 programs (outside PATH, as `scripts/postgres` finds them).
    public static let postgresBinaries = URL(fileURLWithPath: "/usr/lib/postgresql/15/bin")

    /// `postgres://…/e2e_<uuid>` on PostgreSQL; `nil` on SQLite.
    public let url: String?
    /// The database's name on its server (`e2e_<uuid>`); `nil` on SQLite.
    public let name: String?
    /// The URL of the server's maintenance database, where the test database is made and dropped.
    private let serverURL: String?

    /// A database of the run's kind.
    public convenience init() throws {
        switch Self.kind {
        case .sqlite:
            self.init(url: nil, name: nil, serverURL: nil)
        case .postgres:
            guard let server = ProcessInfo.processInfo.environment["HEARTH_TEST_POSTGRES_URL"], !server.isEmpty else {
                throw TestHTTPError(
                    "HEARTH_TEST_DATABASE=postgres needs HEARTH_TEST_POSTGRES_URL (a PostgreSQL server's URL; "
                        + "scripts/test starts one)"
                )
            }
            try self.init(onPostgreSQLServer: server)
        case nil:
            throw TestHTTPError(
                "HEARTH_TEST_DATABASE must be sqlite or postgres, not "
                    + "\"\(ProcessInfo.processInfo.environment["HEARTH_TEST_DATABASE"] ?? "")\""
            )
        }
    }

    private init(url: String?, name: String?, serverURL: String?) {
        self.url = url
        self.name = name
        self.serverURL = serverURL
    }

    /// A fresh database on the PostgreSQL server `serverURL` names (by any database of it; the
    /// new one takes the place of its path).
    public convenience init(onPostgreSQLServer serverURL: String) throws {
        guard var components = URLComponents(string: serverURL), components.host != nil else {
            throw TestHTTPError("not a PostgreSQL URL: \(serverURL)")
        }
        let name = "e2e_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "_")
        components.path = "/" + name
        guard let url = components.string else {
            throw TestHTTPError("cannot make a URL for \(name) from \(serverURL)")
        }
        try Self.psql(serverURL, "CREATE DATABASE \(name)")
        self.init(url: url, name: name, serverURL: serverURL)
    }

    deinit {
        // FORCE ends the sessions of a server that is still shutting down.
        if let serverURL, let name { try? Self.psql(serverURL, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
    }

    /// The flags that point `hearth` at this database (none on SQLite: `--data` says it).
    public var arguments: [String] { url.map { ["--database", $0] } ?? [] }

    /// The database's whole content as `pg_dump` prints it (schema and rows, plain SQL).
    public func dump() throws -> Data {
        guard let url else { throw TestHTTPError("a SQLite test database is its file; read the file") }
        let outcome = try HearthCommand.run(
            ["--no-owner", "--dbname", url],
            executable: Self.postgresBinaries.appendingPathComponent("pg_dump").path
        )
        guard outcome.status == 0 else { throw TestHTTPError("pg_dump failed (\(outcome.status)): \(outcome.errors)") }
        return Data(outcome.output.utf8)
    }

    /// Runs one SQL command with `psql` on the database `url` names; throws when it fails.
    public static func psql(_ url: String, _ command: String) throws {
        let outcome = try HearthCommand.run(
            ["-X", "-q", "-v", "ON_ERROR_STOP=1", "--dbname", url, "-c", command],
            executable: postgresBinaries.appendingPathComponent("psql").path
        )
        guard outcome.status == 0 else {
            throw TestHTTPError("psql \(command) failed (\(outcome.status)): \(outcome.errors)")
        }
    }
}

extension Data {
    /// Whether `secret` is in these bytes as it is, or in lowercase hex as `pg_dump` prints a
    /// `bytea` column (`\x…`).
    public func holds(_ secret: String) -> Bool {
        let raw = Data(secret.utf8)
        let hex = Data(raw.map { String(format: "%02x", $0) }.joined().utf8)
        return range(of: raw) != nil || range(of: hex) != nil
    }
}
