import HearthCrypto
import HearthStore

/// The text form of a data set that `hearth export` writes and `hearth import` reads, one
/// record per line (UTF-8, `\n`), so either side streams it a row at a time:
///
/// ```text
/// hearth-data-set 1
/// schema 1 2 100 200 201 202 300 301 302 303 400 401 402
/// table projects project_id project_number document revision updated_at
/// Tdemo-project<TAB>T100000000000<TAB>T{"apps":[]}<TAB>I3<TAB>I1764840000000
/// end projects 1
/// ...one table block per catalogue table, in the catalogue's order...
/// end-data-set 14
/// ```
///
/// A row is its values separated by tabs, each typed by its first character: `N` null,
/// `I` an integer, `R` a real, `T` text with `\`, tab, newline and carriage return escaped as
/// `\\`, `\t`, `\n`, `\r`, `B` bytes in base64. Sealed values (signing keys, queued mail, webhook
/// secrets) are bytes like any other: they travel sealed. The `end` lines carry the counts, so a
/// truncated or edited file is refused rather than half imported.
enum DataSetFile {
    static let magic = "hearth-data-set"
    static let version = 1

    /// A line that does not read as the format says.
    struct FormatError: Error, CustomStringConvertible {
        let line: Int
        let message: String
        var description: String { "line \(line): \(message)" }
    }

    static func encode(_ value: SQLValue, into line: inout String) {
        switch value {
        case .null: line += "N"
        case .integer(let integer): line += "I\(integer)"
        case .real(let real): line += "R\(real)"
        case .blob(let bytes): line += "B" + Base64.encode(bytes)
        case .text(let text):
            line += "T"
            for character in text.unicodeScalars {
                switch character {
                case "\\": line += "\\\\"
                case "\t": line += "\\t"
                case "\n": line += "\\n"
                case "\r": line += "\\r"
                default: line.unicodeScalars.append(character)
                }
            }
        }
    }

    static func decode(_ field: Substring) -> SQLValue? {
        guard let tag = field.first else { return nil }
        let body = field.dropFirst()
        switch tag {
        case "N": return body.isEmpty ? .null : nil
        case "I": return Int64(body).map { .integer($0) }
        case "R": return Double(body).map { .real($0) }
        case "B": return Base64.decode(body).map { .blob($0) }
        case "T": return unescape(body).map { .text($0) }
        default: return nil
        }
    }

    private static func unescape(_ body: Substring) -> String? {
        var text = ""
        var escaped = false
        for character in body.unicodeScalars {
            if escaped {
                switch character {
                case "\\": text += "\\"
                case "t": text += "\t"
                case "n": text += "\n"
                case "r": text += "\r"
                default: return nil
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                text.unicodeScalars.append(character)
            }
        }
        return escaped ? nil : text
    }
}

extension DataSetFile {
    /// Writes a data set as it is read, table by table.
    struct Writer {
        private let file: TextFile

        init(_ file: TextFile, schemaSteps: [Int]) throws(TextFile.Failure) {
            self.file = file
            try file.write("\(DataSetFile.magic) \(DataSetFile.version)\n")
            try file.write("schema \(schemaSteps.map(String.init).joined(separator: " "))\n")
        }

        func begin(_ table: TransferCatalogue.Table) throws(TextFile.Failure) {
            try file.write("table \(table.name) \(table.columnNames.joined(separator: " "))\n")
        }

        func row(_ values: [SQLValue]) throws(TextFile.Failure) {
            var line = ""
            for (index, value) in values.enumerated() {
                if index > 0 { line += "\t" }
                DataSetFile.encode(value, into: &line)
            }
            line += "\n"
            try file.write(line)
        }

        func end(_ table: TransferCatalogue.Table, rows: Int) throws(TextFile.Failure) {
            try file.write("end \(table.name) \(rows)\n")
        }

        func finish(tables: Int) throws(TextFile.Failure) {
            try file.write("end-data-set \(tables)\n")
        }
    }
}

extension DataSetFile {
    /// Reads a data set back, checking every line: the header, each table block against the
    /// catalogue (its name in order, its columns, each value's type, its row count) and the end.
    struct Reader {
        private let file: TextFile
        private var lineNumber = 0
        /// The schema steps the file's header names.
        private(set) var schemaSteps: [Int] = []

        init(_ file: TextFile) throws {
            self.file = file
            let header = try nextLine()
            guard header == "\(DataSetFile.magic) \(DataSetFile.version)" else {
                throw FormatError(line: 1, message: "not a hearth data set of version \(DataSetFile.version)")
            }
            let schema = try nextLine().split(separator: " ")
            let steps = schema.dropFirst().compactMap { Int($0) }
            guard schema.first == "schema", steps.count == schema.count - 1, !steps.isEmpty else {
                throw FormatError(line: 2, message: "expected the schema steps")
            }
            schemaSteps = steps
        }

        /// Reads every table block in the catalogue's order, calling `row` for each row (its
        /// values in the catalogue's column order), and the end of the file.
        /// - Returns: the rows of each table.
        mutating func readTables(_ row: (TransferCatalogue.Table, [SQLValue]) throws -> Void) throws -> [Int] {
            var counts: [Int] = []
            for table in TransferCatalogue.tables {
                let expected = "table \(table.name) \(table.columnNames.joined(separator: " "))"
                guard try nextLine() == expected else {
                    throw FormatError(line: lineNumber, message: "expected \"\(expected)\"")
                }
                var count = 0
                while true {
                    let line = try nextLine()
                    if line.hasPrefix("end ") {
                        guard line == "end \(table.name) \(count)" else {
                            throw FormatError(
                                line: lineNumber,
                                message: "\(table.name) ends with \"\(line)\" after \(count) rows"
                            )
                        }
                        break
                    }
                    try row(table, try values(of: line, in: table))
                    count += 1
                }
                counts.append(count)
            }
            guard try nextLine() == "end-data-set \(TransferCatalogue.tables.count)" else {
                throw FormatError(line: lineNumber, message: "expected the end of the data set")
            }
            guard try file.readLine() == nil else {
                throw FormatError(line: lineNumber + 1, message: "more follows the end of the data set")
            }
            return counts
        }

        private func values(of line: String, in table: TransferCatalogue.Table) throws(FormatError) -> [SQLValue] {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == table.columns.count else {
                throw FormatError(
                    line: lineNumber,
                    message: "a row of \(table.name) has \(fields.count) values, not \(table.columns.count)"
                )
            }
            var values: [SQLValue] = []
            values.reserveCapacity(fields.count)
            for (field, column) in zip(fields, table.columns) {
                guard let value = DataSetFile.decode(field), value.fits(column.type) else {
                    throw FormatError(line: lineNumber, message: "\(table.name).\(column.name) is not \(column.type)")
                }
                values.append(value)
            }
            return values
        }

        private mutating func nextLine() throws -> String {
            guard let line = try file.readLine() else {
                throw FormatError(line: lineNumber + 1, message: "the file ends early (truncated?)")
            }
            lineNumber += 1
            return line
        }
    }
}

extension SQLValue {
    fileprivate func fits(_ type: TransferCatalogue.ColumnType) -> Bool {
        switch (self, type) {
        case (.null, _), (.text, .text), (.integer, .integer), (.blob, .bytes): true
        default: false
        }
    }
}
