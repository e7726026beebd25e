/// One JSON value of a verified token's payload.
public enum ClaimValue: Sendable, Hashable, Decodable {
    /// A string.
    case string(String)
    /// A number (JSON numbers are doubles; times and counts are exact up to 2⁵³).
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// An array.
    case array([ClaimValue])
    /// An object.
    case object([String: ClaimValue])
    /// `null`.
    case null

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ClaimValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ClaimValue].self))
        }
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The number, if this is one.
    public var numberValue: Double? {
        if case .number(let value) = self { value } else { nil }
    }

    /// The Boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The object's members, if this is an object.
    public var objectValue: [String: ClaimValue]? {
        if case .object(let value) = self { value } else { nil }
    }

    /// The member `key` of an object.
    public subscript(key: String) -> ClaimValue? { objectValue?[key] }
}
