import HearthBase

/// One step of the schema's history. Steps are applied in `version` order, each in its own
/// transaction, and recorded in `schema_migrations`; a step never changes once released.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    /// The statements, with `BYTES` for binary columns (BLOB in SQLite, BYTEA in PostgreSQL)
    /// and `) KEYED;` closing a table stored by its primary key alone (SQLite's
    /// `WITHOUT ROWID`, which saves a second b-tree; PostgreSQL has no such distinction).
    /// `INTEGER` is 64 bits in SQLite and 32 in PostgreSQL, so it becomes `BIGINT` there (the
    /// schema itself writes `BIGINT`, which SQLite reads as `INTEGER`).
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    func statements(for dialect: SQLDialect) -> String {
        switch dialect {
        case .sqlite: sql.replacing(" BYTES", with: " BLOB").replacing(") KEYED;", with: ") WITHOUT ROWID;")
        case .postgres:
            sql.replacing(" BYTES", with: " BYTEA").replacing(") KEYED;", with: ");")
                .replacing(" INTEGER", with: " BIGINT")
        }
    }
}

extension Migration {
    /// Brings the schema behind `connection` up to date: applies, in version order, every step
    /// not yet recorded, so a new step in one area's range (say 101) reaches a database whose
    /// other areas are already further on (at 400). Safe when several processes start at once:
    /// each step runs in a transaction that first takes the write lock (SQLite's `BEGIN
    /// IMMEDIATE`; on PostgreSQL an exclusive lock on `schema_migrations`, which blocks the
    /// others' locks and writes but not reads) and re-checks whether it is recorded.
    /// - Returns: the steps this call applied, in the order it applied them (none when the
    ///   schema was up to date).
    /// - Throws: `.incompatibleSchema` when the database records a step this hearth does not
    ///   know (a newer hearth migrated it).
    @discardableResult
    static func apply(_ migrations: [Migration], on connection: any SQLConnection) throws(StoreError) -> [Migration] {
        let createLog = """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                applied_at BIGINT NOT NULL
            )
            """
        do throws(StoreError) {
            try connection.executeScript(createLog)
        } catch  where connection.dialect == .postgres {
            // Two PostgreSQL sessions creating the table at once: the loser fails on the
            // catalog's unique index instead of skipping; the table exists once it may look.
            try connection.executeScript(createLog)
        }
        let known = Set(migrations.map(\.version))
        var applied: [Migration] = []
        for migration in migrations.sorted(by: { $0.version < $1.version }) {
            try connection.execute(beginStep, [])
            do throws(StoreError) {
                if connection.dialect == .postgres {
                    // A step runs as long as it needs, not cut off by the statement timeout
                    // meant for requests, and so does waiting for another node's step.
                    try connection.executeScript(
                        "SET LOCAL statement_timeout = 0; LOCK TABLE schema_migrations IN EXCLUSIVE MODE"
                    )
                }
                let recorded = try connection.query(selectRecordedSteps, []).map { $0.int(0) }
                if let unknown = recorded.filter({ !known.contains($0) }).max() {
                    throw StoreError(
                        .incompatibleSchema,
                        "the database schema has step \(unknown), which this hearth does not know"
                    )
                }
                if !recorded.contains(migration.version) {
                    try connection.executeScript(migration.statements(for: connection.dialect))
                    try connection.execute(
                        recordStep,
                        [
                            .integer(Int64(migration.version)), .text(migration.name),
                            .integer(SystemClock().nowSeconds()),
                        ]
                    )
                    applied.append(migration)
                }
                try connection.execute(.commit, [])
            } catch {
                _ = try? connection.execute(.rollback, [])
                throw error
            }
        }
        return applied
    }
}

/// How a step's transaction begins: on SQLite it takes the write lock up front (on PostgreSQL
/// the step locks `schema_migrations` instead).
private let beginStep = SQLStatement(sqlite: "BEGIN IMMEDIATE", postgres: "BEGIN")
private let selectRecordedSteps = SQLStatement("SELECT version FROM schema_migrations")
private let recordStep = SQLStatement("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)")
