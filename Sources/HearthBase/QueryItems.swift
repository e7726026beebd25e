/// Name/value pairs from a query string or an `application/x-www-form-urlencoded` body, decoded
/// (`+` is a space, `%XX` a byte) and in their original order.
public struct QueryItems: Sendable, Equatable {
    public typealias Item = (name: String, value: String)

    public private(set) var items: [Item]

    public init() { items = [] }

    public init(_ items: [Item]) { self.items = items }

    /// Decodes `name=value&name2=value2`; a piece without `=` has an empty value, empty pieces
    /// are skipped.
    public init(formEncoded text: Substring) {
        items = []
        for piece in text.split(separator: "&", omittingEmptySubsequences: true) {
            if let equals = piece.firstIndex(of: "=") {
                items.append(
                    (
                        PercentDecoding.decode(piece[..<equals], plusAsSpace: true),
                        PercentDecoding.decode(piece[piece.index(after: equals)...], plusAsSpace: true)
                    )
                )
            } else {
                items.append((PercentDecoding.decode(piece, plusAsSpace: true), ""))
            }
        }
    }

    public init(formEncoded bytes: [UInt8]) {
        self.init(formEncoded: Substring(String(decoding: bytes, as: UTF8.self)))
    }

    public var isEmpty: Bool { items.isEmpty }
    public var count: Int { items.count }

    /// The first value for `name`.
    public subscript(name: String) -> String? {
        for item in items where item.name == name { return item.value }
        return nil
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        items.filter { $0.name == name }.map(\.value)
    }

    /// Adds one pair at the end.
    public mutating func append(_ name: String, _ value: String) {
        items.append((name, value))
    }

    public static func == (lhs: QueryItems, rhs: QueryItems) -> Bool {
        lhs.items.count == rhs.items.count && zip(lhs.items, rhs.items).allSatisfy { $0 == $1 }
    }
}

extension QueryItems: Sequence {
    public func makeIterator() -> IndexingIterator<[Item]> { items.makeIterator() }
}

extension QueryItems: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, String)...) {
        items = elements.map { (name: $0.0, value: $0.1) }
    }
}
