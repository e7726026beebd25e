import Foundation
import HearthStore
import Testing

/// The catalogue `hearth export` and `import` move data by lists exactly what a migrated
/// database holds: a step that adds a table or a column fails here until it is listed.
@Suite struct TransferCatalogueTests {
    @Test(arguments: StoreKind.allCases)
    func theCatalogueListsEveryTableAndColumnOfTheMigratedSchema(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        #expect(try Self.differences(fixture.store) == [])
    }

    @Test(arguments: StoreKind.allCases)
    func aStepThatAddsATableOrAColumnIsReportedUntilTheCatalogueListsIt(_ kind: StoreKind) throws {
        let later = Migration(
            version: 1000,
            name: "a table and a column the catalogue does not know",
            sql: """
                ALTER TABLE accounts ADD COLUMN nickname TEXT;
                CREATE TABLE badges (badge_id TEXT PRIMARY KEY, project_id TEXT NOT NULL REFERENCES projects(project_id));
                """
        )
        let fixture = try StoreFixture(kind, migrations: Schema.migrations + [later])
        let differences = try Self.differences(fixture.store)
        #expect(differences.count == 2)
        #expect(differences.first == "badges: in the schema, not in the catalogue")
        #expect(differences.last?.hasPrefix("accounts: columns are project_id text, local_id text,") == true)
        #expect(differences.last?.contains("phone_number text, nickname text; the catalogue has") == true)
    }

    @Test(arguments: StoreKind.allCases)
    func rowsInsertedInBatchesAreReadPageByPageInKeyOrder(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let counters = try #require(TransferCatalogue.table(named: "rate_counters"))
        // More rows than one insert carries, in no order; keys that share their first column.
        let rows: [[SQLValue]] = (0..<150).map { index in
            [.text("bucket-\(index % 7)"), .integer(Int64(index / 7)), .integer(Int64(index)), 9]
        }.shuffled()
        try fixture.store.write { transaction in
            try transaction.insertTransferRows(counters, Array(rows.prefix(1)))
            try transaction.insertTransferRows(counters, Array(rows.dropFirst()))
        }
        let read = try fixture.store.read { transaction in
            var read: [[SQLValue]] = []
            try transaction.forEachTransferRow(counters, pageSize: 8) { read.append($0) }
            return read
        }
        #expect(read == rows.sorted { ($0[0].text, $0[1].integer) < ($1[0].text, $1[1].integer) })
        #expect(try fixture.store.read { try $0.transferRowCount(counters) } == 150)
        #expect(try fixture.store.read { try $0.holdsTransferRows() })

        try fixture.store.write { try $0.deleteTransferRows() }
        #expect(try !fixture.store.read { try $0.holdsTransferRows() })
    }

    /// What the live schema has that the catalogue does not say, or says otherwise: tables,
    /// columns in order with their types, primary keys, and parents listed after a child.
    static func differences(_ store: any Store) throws -> [String] {
        let live = try store.read { try LiveSchema(reading: $0) }
        var differences: [String] = []
        let listed = TransferCatalogue.tables.map(\.name)
        for table in live.tables.keys.sorted() where !listed.contains(table) {
            differences.append("\(table): in the schema, not in the catalogue")
        }
        for (position, table) in TransferCatalogue.tables.enumerated() {
            guard let columns = live.tables[table.name] else {
                differences.append("\(table.name): in the catalogue, not in the schema")
                continue
            }
            let described = table.columns.map { "\($0.name) \($0.type.rawValue)" }
            if columns.map(\.description) != described {
                differences.append(
                    "\(table.name): columns are \(columns.map(\.description).joined(separator: ", ")); "
                        + "the catalogue has \(described.joined(separator: ", "))"
                )
            }
            let key = columns.filter { $0.keyPosition > 0 }.sorted { $0.keyPosition < $1.keyPosition }
            if key.map(\.name) != table.key {
                differences.append("\(table.name): key is \(key.map(\.name)), the catalogue's \(table.key)")
            }
            for parent in live.parents[table.name, default: []] where !listed[..<position].contains(parent) {
                differences.append("\(table.name): refers to \(parent), which the catalogue does not list before it")
            }
        }
        return differences
    }
}

/// The tables of a migrated database as the database itself describes them.
private struct LiveSchema {
    struct LiveColumn {
        let name: String
        let declared: String
        /// 1-based position in the primary key, 0 when not in it.
        let keyPosition: Int

        /// The column as the catalogue would list it: `name type`, the type as the catalogue
        /// names the schema's declared one (any other type stays as declared, so it differs).
        var description: String {
            let type =
                switch declared.uppercased() {
                case "BLOB", "BYTEA": "bytes"
                case "BIGINT", "INTEGER": "integer"
                case "TEXT": "text"
                default: declared
                }
            return "\(name) \(type)"
        }
    }

    var tables: [String: [LiveColumn]] = [:]
    var parents: [String: [String]] = [:]

    init(reading transaction: ReadTransaction) throws {
        let connection = transaction.connection
        let names = try connection.query(Self.tables, []).map { $0.string(0) }
        for name in names where !TransferCatalogue.untransferredTables.contains(name) {
            tables[name] = try connection.query(Self.columns, [.text(name)]).map {
                LiveColumn(name: $0.string(0), declared: $0.string(1), keyPosition: $0.int(2))
            }
            parents[name] = try connection.query(Self.parents, [.text(name)]).map { $0.string(0) }
        }
    }

    // How each database lists its tables, a table's columns (name, declared type, position in
    // the primary key or 0) in order, and the tables a table's foreign keys refer to.

    private static let tables = SQLStatement(
        sqlite: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        postgres: """
            SELECT table_name FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
            """
    )

    private static let columns = SQLStatement(
        sqlite: "SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid",
        postgres: """
            SELECT c.column_name, c.data_type, coalesce((
                SELECT k.position FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
                WHERE k.attnum = a.attnum
            ), 0)
            FROM information_schema.columns c
            JOIN pg_attribute a ON a.attrelid = (current_schema() || '.' || c.table_name)::regclass
                AND a.attname = c.column_name
            LEFT JOIN pg_index i ON i.indrelid = a.attrelid AND i.indisprimary
            WHERE c.table_schema = current_schema() AND c.table_name = ?
            ORDER BY c.ordinal_position
            """
    )

    private static let parents = SQLStatement(
        sqlite: "SELECT \"table\" FROM pragma_foreign_key_list(?)",
        postgres: """
            SELECT confrelid::regclass::text FROM pg_constraint
            WHERE contype = 'f' AND conrelid = (current_schema() || '.' || ?)::regclass
            """
    )
}

extension SQLValue {
    fileprivate var text: String { if case .text(let value) = self { value } else { "" } }
    fileprivate var integer: Int64 { if case .integer(let value) = self { value } else { 0 } }
}
