private let selectSchemaSteps = SQLStatement("SELECT version FROM schema_migrations ORDER BY version")

extension StoreReading {
    /// The schema steps recorded in the database, in version order.
    public func schemaSteps() throws(StoreError) -> [Int] {
        try connection.query(selectSchemaSteps, []).map { $0.int(0) }
    }

    /// How many rows `table` holds.
    public func transferRowCount(_ table: TransferCatalogue.Table) throws(StoreError) -> Int {
        try connection.queryFirst(table.count, [])?.int(0) ?? 0
    }

    /// Whether any table of the catalogue holds a row.
    public func holdsTransferRows() throws(StoreError) -> Bool {
        for table in TransferCatalogue.tables {
            if try connection.queryFirst(table.anyRow, []) != nil { return true }
        }
        return false
    }

    /// Calls `body` with every row of `table` in key order, each value as its column's type,
    /// reading `pageSize` rows at a time so that no more than a page is held at once.
    public func forEachTransferRow(
        _ table: TransferCatalogue.Table,
        pageSize: Int = 1_000,
        _ body: ([SQLValue]) throws -> Void
    ) throws {
        let keyColumns = table.key.map { key in table.columns.firstIndex { $0.name == key }! }
        var last: [SQLValue]?
        while true {
            let page =
                if let last {
                    try connection.query(table.selectNextPage, last + [.integer(pageSize)])
                } else {
                    try connection.query(table.selectFirstPage, [.integer(pageSize)])
                }
            for row in page {
                try body(zip(row.values, table.columns).map { $0.typed(as: $1.type) })
            }
            guard page.count == pageSize, let final = page.last else { return }
            // The stored values, not the typed ones, so the next page compares like with like.
            last = keyColumns.map { final.values[$0] }
        }
    }
}

/// PostgreSQL's statement timeout, off until the transaction ends.
private let disableStatementTimeout = SQLStatement("SET LOCAL statement_timeout = 0")

extension WriteTransaction {
    /// Inserts rows of `table`, each with its values in the catalogue's column order, up to
    /// `TransferCatalogue.rowsPerInsert` in one statement.
    public func insertTransferRows(_ table: TransferCatalogue.Table, _ rows: [[SQLValue]]) throws(StoreError) {
        var start = 0
        while start < rows.count {
            let batch = rows[start..<min(rows.count, start + TransferCatalogue.rowsPerInsert)]
            var values: [SQLValue] = []
            values.reserveCapacity(batch.count * table.columns.count)
            for row in batch {
                precondition(row.count == table.columns.count, "a row of \(table.name) has the wrong number of values")
                values += row
            }
            try connection.execute(table.insert(rows: batch.count), values)
            start += batch.count
        }
    }

    /// Lets the statements of this transaction run as long as they need: an import's
    /// statements are not requests, which PostgreSQL's statement timeout is meant to cut off.
    public func allowLongStatements() throws(StoreError) {
        if connection.dialect == .postgres { try connection.execute(disableStatementTimeout, []) }
    }

    /// Deletes every row of every catalogue table, children first.
    public func deleteTransferRows() throws(StoreError) {
        for table in TransferCatalogue.tables.reversed() { try connection.execute(table.deleteAll, []) }
    }
}

extension SQLValue {
    /// The value as a column of `type` holds it: SQLite keeps whatever class a value was
    /// written with, so text in a binary column (or bytes in a text one) is read as the
    /// column's type, which is what PostgreSQL would store.
    func typed(as type: TransferCatalogue.ColumnType) -> SQLValue {
        switch (type, self) {
        case (.bytes, .text(let text)): .blob(Array(text.utf8))
        case (.text, .blob(let bytes)): .text(String(decoding: bytes, as: UTF8.self))
        case (.integer, .real(let value)): .integer(Int64(value))
        case (.integer, .text(let text)): Int64(text).map { .integer($0) } ?? self
        default: self
        }
    }
}
