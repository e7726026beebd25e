/// A value bound to a statement parameter or read from a result column. The five cases are
/// the storage classes both SQLite and PostgreSQL (through its text protocol) agree on.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(nilLiteral: ()) { self = .null }
}

extension SQLValue {
    /// `.null` for `nil`, else the text.
    public static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    /// `.null` for `nil`, else the integer.
    public static func integer(_ value: Int64?) -> SQLValue { value.map { .integer($0) } ?? .null }
    public static func integer(_ value: Int) -> SQLValue { .integer(Int64(value)) }
    public static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
}
