import HearthBase

/// One step of the schema's history. Steps are applied in `version` order, each in its own
/// transaction, and recorded in `schema_migrations`; a step never changes once released.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    /// The statements, with `BYTES` for binary columns (BLOB in SQLite, BYTEA in PostgreSQL)
    /// and `) KEYED;` closing a table stored by its primary key alone (SQLite's
    /// `WITHOUT ROWID`, which saves a second b-tree; PostgreSQL has no such distinction).
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    func statements(for dialect: SQLDialect) -> String {
        switch dialect {
        case .sqlite: sql.replacing(" BYTES", with: " BLOB").replacing(") KEYED;", with: ") WITHOUT ROWID;")
        case .postgres: sql.replacing(" BYTES", with: " BYTEA").replacing(") KEYED;", with: ");")
        }
    }
}

extension Migration {
    /// Brings the schema behind `connection` up to date. Safe when several processes start
    /// at once: each step runs in a transaction that first re-checks the recorded version.
    static func apply(_ migrations: [Migration], on connection: any SQLConnection) throws(StoreError) {
        try connection.executeScript(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                applied_at BIGINT NOT NULL
            )
            """
        )
        let known = migrations.map(\.version).max() ?? 0
        let begin = connection.dialect == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN"
        for migration in migrations.sorted(by: { $0.version < $1.version }) {
            try connection.execute(begin, [])
            do throws(StoreError) {
                let current =
                    try connection.queryFirst("SELECT MAX(version) FROM schema_migrations", [])?
                    .optionalInt64(0) ?? 0
                if current > known {
                    throw StoreError(
                        .incompatibleSchema,
                        "the database schema is at version \(current); this hearth knows up to \(known)"
                    )
                }
                if current < migration.version {
                    try connection.executeScript(migration.statements(for: connection.dialect))
                    try connection.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                        [
                            .integer(Int64(migration.version)), .text(migration.name),
                            .integer(SystemClock().nowSeconds()),
                        ]
                    )
                }
                try connection.execute("COMMIT", [])
            } catch {
                _ = try? connection.execute("ROLLBACK", [])
                throw error
            }
        }
    }
}
