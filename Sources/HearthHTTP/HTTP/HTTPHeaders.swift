import HearthBase

/// Header fields in the order they were given; names compare without regard to ASCII case.
///
/// Request headers arrive with lower-cased names; response headers keep the case they were
/// written with.
public struct HTTPHeaders: Sendable, Equatable {
    public typealias Field = (name: String, value: String)

    public private(set) var fields: [Field]

    public init() { fields = [] }

    public init(_ fields: [Field]) { self.fields = fields }

    public init(reservingCapacity capacity: Int) {
        fields = []
        fields.reserveCapacity(capacity)
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    /// The first value of the field `name`.
    public subscript(name: String) -> String? {
        for field in fields where Self.namesMatch(field.name, name) { return field.value }
        return nil
    }

    /// Every value of the field `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// Replaces every field called `name` with a single one.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name, value))
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { namesMatch($0.name, $1.name) && $0.value == $1.value }
    }

    /// ASCII case-insensitive comparison; an exact match (the usual case) costs one compare.
    static func namesMatch(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        guard a.utf8.count == b.utf8.count else { return false }
        return zip(a.utf8, b.utf8).allSatisfy { ASCII.lowercased($0) == ASCII.lowercased($1) }
    }
}

extension HTTPHeaders: Sequence {
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}

extension HTTPHeaders: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }
}
