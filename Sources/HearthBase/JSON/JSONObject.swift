/// The members of a JSON object, in order.
///
/// Lookups are linear scans, which beats hashing for the small objects of an API (a dozen keys);
/// the parser rejects duplicate keys, so a key names at most one member.
public struct JSONObject: Sendable {
    public typealias Member = (key: String, value: JSONValue)

    /// The members in document (or insertion) order.
    public private(set) var members: [Member]

    public init() { members = [] }

    /// Builds an object from pairs; a repeated key keeps its first position and its last value.
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        members = []
        for (key, value) in pairs { self[key] = value }
    }

    /// Takes members as they are, without checking for duplicate keys (the parser checks).
    init(uncheckedMembers: [Member]) { members = uncheckedMembers }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    /// The value for `key`; assigning `nil` removes the member, assigning a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            // By index: comparing keys in place, not copying every member on the way.
            for index in members.indices where members[index].key == key { return members[index].value }
            return nil
        }
        set {
            let index = members.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let value?): members[index].value = value
            case (let index?, nil): members.remove(at: index)
            case (nil, let value?): members.append((key, value))
            case (nil, nil): break
            }
        }
    }
}

extension JSONObject: Sequence {
    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }
}

extension JSONObject: Equatable {
    /// Objects are equal when they hold the same keys with equal values, in any order (JSON
    /// objects are unordered; the order is only kept for stable output).
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}
