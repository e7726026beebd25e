/// One result row; columns are read by position, in the order the `SELECT` names them.
public struct SQLRow: Sendable {
    public let values: [SQLValue]

    public init(values: [SQLValue]) { self.values = values }

    public subscript(_ column: Int) -> SQLValue { values[column] }

    public func int64(_ column: Int) -> Int64 {
        switch values[column] {
        case .integer(let value): value
        case .real(let value): Int64(value)
        case .text(let text): Int64(text) ?? 0
        case .null, .blob: 0
        }
    }

    public func optionalInt64(_ column: Int) -> Int64? {
        if case .null = values[column] { return nil }
        return int64(column)
    }

    public func int(_ column: Int) -> Int { Int(int64(column)) }

    public func bool(_ column: Int) -> Bool { int64(column) != 0 }

    public func string(_ column: Int) -> String {
        switch values[column] {
        case .text(let text): text
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
        case .null: ""
        }
    }

    public func optionalString(_ column: Int) -> String? {
        if case .null = values[column] { return nil }
        return string(column)
    }

    public func bytes(_ column: Int) -> [UInt8] {
        switch values[column] {
        case .blob(let bytes): bytes
        case .text(let text): Array(text.utf8)
        case .null, .integer, .real: []
        }
    }
}
