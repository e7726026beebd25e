import HearthCore
import HearthStore

/// Moves a store's whole data set to a `DataSetFile` and back: every table of the
/// `TransferCatalogue`, read in one snapshot and written in one transaction. Sealed values
/// travel as they are stored, so both sides need the same master key; it is checked against
/// every signing key before anything is written (the file on export, the database on import).
struct DataSetTransfer {
    let store: any Store
    let masterKey: MasterKey
    /// The command's name, which starts its messages.
    let command: String

    /// Writes the store's data set to `path`.
    /// - Returns: the rows of each catalogue table.
    func export(to path: String) throws -> [Int] {
        let file = try TextFile.writing(path)
        let counts = try store.read { transaction in
            let signingKeys = TransferCatalogue.signingKeys
            try transaction.forEachTransferRow(signingKeys) { try checkKey($0) }
            let totals = try TransferCatalogue.tables.map { try transaction.transferRowCount($0) }
            let progress = TransferProgress("exporting", totalRows: totals.reduce(0, +))
            defer { progress.finish() }
            let writer = try DataSetFile.Writer(file, schemaSteps: try transaction.schemaSteps())
            var counts: [Int] = []
            for table in TransferCatalogue.tables {
                try writer.begin(table)
                var count = 0
                try transaction.forEachTransferRow(table) { values in
                    try writer.row(values)
                    count += 1
                    progress.advance(table.name)
                }
                try writer.end(table, rows: count)
                counts.append(count)
            }
            try writer.finish(tables: counts.count)
            return counts
        }
        try file.commit()
        return counts
    }

    /// Loads the data set at `path`: reads it through once to check it (format, schema steps,
    /// master key) without writing, then again inside one transaction that inserts every row,
    /// so a failure anywhere leaves the database as it was.
    /// - Parameter replacing: empty a database that holds data first, instead of refusing it.
    /// - Returns: the rows of each catalogue table.
    func `import`(from path: String, replacing: Bool) throws -> [Int] {
        let target = try store.read { try $0.schemaSteps() }
        var checking = try fileChecked(path) { try DataSetFile.Reader(TextFile.reading(path)) }
        guard checking.schemaSteps == target else {
            throw CommandFailure(
                "\(command): \(path) has schema steps \(Self.list(checking.schemaSteps)); the database has "
                    + "\(Self.list(target)): migrate both to the same hearth version first"
            )
        }
        let counts = try fileChecked(path) {
            try checking.readTables { table, values in
                if table.name == TransferCatalogue.signingKeys.name { try checkKey(values) }
            }
        }
        if !replacing, try store.read({ try $0.holdsTransferRows() }) {
            throw Self.notEmpty(command)
        }
        let progress = TransferProgress("importing", totalRows: counts.reduce(0, +))
        defer { progress.finish() }
        let command = command
        return try store.write { transaction in
            try transaction.allowLongStatements()
            if replacing {
                try transaction.deleteTransferRows()
            } else if try transaction.holdsTransferRows() {
                throw Self.notEmpty(command)  // written to since the check above
            }
            var reading = try DataSetFile.Reader(TextFile.reading(path))
            var batch = RowBatch()
            let counts = try reading.readTables { table, values in
                try batch.add(values, of: table, flushing: transaction)
                progress.advance(table.name)
            }
            try batch.flush(into: transaction)
            return counts
        }
    }

    /// `body`'s result, a file that does not read as a data set failing as the command.
    private func fileChecked<Value>(_ path: String, _ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch let error as DataSetFile.FormatError {
            throw CommandFailure("\(command): \(path) is not a whole data set: \(error)")
        }
    }

    /// Refuses a master key that does not open a signing key row (catalogue column order).
    private func checkKey(_ values: [SQLValue]) throws {
        let columns = TransferCatalogue.signingKeys.columnNames
        guard case .text(let keyID) = values[columns.firstIndex(of: "key_id")!],
            case .text(let projectID) = values[columns.firstIndex(of: "project_id")!],
            case .blob(let sealed) = values[columns.firstIndex(of: "sealed_private_key")!]
        else { throw CommandFailure("\(command): a signing key row lacks its ID, project or sealed key") }
        guard KeyRing.opens(sealedPrivateKey: sealed, keyID: keyID, with: masterKey) else {
            throw CommandFailure(
                "\(command): the master key does not open signing key \(keyID) of project \(projectID): give "
                    + "the key the data was sealed with (HEARTH_MASTER_KEY, or master.key in --data DIR)"
            )
        }
    }

    private static func notEmpty(_ command: String) -> CommandFailure {
        CommandFailure("\(command): the database already holds data; pass --replace to delete it and import")
    }

    private static func list(_ steps: [Int]) -> String { steps.map(String.init).joined(separator: " ") }

    /// One line per area: its rows, and each table's when it has several.
    static func countsByArea(_ counts: [Int]) -> [String] {
        var areas: [(area: String, tables: [(String, Int)])] = []
        for (table, count) in zip(TransferCatalogue.tables, counts) {
            if areas.last?.area == table.area {
                areas[areas.count - 1].tables.append((table.name, count))
            } else {
                areas.append((table.area, [(table.name, count)]))
            }
        }
        return areas.map { area, tables in
            let total = tables.map(\.1).reduce(0, +)
            guard tables.count > 1 else { return "\(area): \(total)" }
            return "\(area): \(total) (\(tables.map { "\($0.0) \($0.1)" }.joined(separator: ", ")))"
        }
    }
}

/// Rows read for one table, inserted together once there are enough or the table ends.
private struct RowBatch {
    private var table: TransferCatalogue.Table?
    private var rows: [[SQLValue]] = []

    mutating func add(
        _ values: [SQLValue],
        of table: TransferCatalogue.Table,
        flushing transaction: WriteTransaction
    ) throws(StoreError) {
        if self.table?.name != table.name || rows.count == TransferCatalogue.rowsPerInsert {
            try flush(into: transaction)
            self.table = table
        }
        rows.append(values)
    }

    mutating func flush(into transaction: WriteTransaction) throws(StoreError) {
        if let table, !rows.isEmpty { try transaction.insertTransferRows(table, rows) }
        rows.removeAll(keepingCapacity: true)
    }
}

extension TransferCatalogue {
    /// The table of signing keys, whose sealed keys check the master key.
    static var signingKeys: Table { table(named: "signing_keys")! }
}
