/// A JSON document held in memory: the value every layer passes around for request bodies,
/// response bodies and log fields.
///
/// Numbers keep their kind: integers that fit in `Int64` stay exact in ``int(_:)`` (IDs, epoch
/// milliseconds and counters must not lose digits to `Double`); every other number is a
/// ``double(_:)``. Two numbers compare equal when they denote the same value, so
/// `.int(1) == .double(1)`. Objects keep their members in the order they were parsed or inserted
/// (see ``JSONObject``), which makes serialisation deterministic.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    /// An integer that fits in 64 bits.
    case int(Int64)
    /// Any other finite number (fractions, exponents, integers beyond `Int64`).
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

extension JSONValue: Equatable {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)):
            // Compare exactly: converting `a` to Double could round two different values together.
            guard let exact = Int64(exactly: b) else { return false }
            return exact == a
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .int(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}
