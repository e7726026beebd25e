/// A statement whose text differs between the backends only where a placeholder marks it,
/// made once for each (constant texts keep the connections' statement caches cheap).
struct DialectStatement: Sendable {
    /// Where a queue's claim chooses its rows: on PostgreSQL it locks them, passing over rows
    /// another transaction holds; SQLite writes one transaction at a time and has no such clause.
    static let lockingChosenRows = "/*locking chosen rows*/"

    let sqlite: String
    let postgres: String

    init(_ text: String) {
        sqlite = text.replacing(Self.lockingChosenRows, with: "")
        postgres = text.replacing(Self.lockingChosenRows, with: "FOR UPDATE SKIP LOCKED")
    }
}
