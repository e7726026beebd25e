/// One open database connection that runs parameterised SQL. Statements use `?` placeholders;
/// a backend whose server wants another style rewrites them once, when it prepares them.
///
/// A connection is used by one thread at a time: the store hands it to exactly one reader or
/// to the writer, never to two callers at once.
public protocol SQLConnection: AnyObject {
    /// The SQL flavour, for the few statements whose text differs between backends.
    var dialect: SQLDialect { get }

    /// Runs a statement that returns no rows and answers how many rows it changed.
    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> Int

    /// Runs a query and answers every row.
    func query(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> [SQLRow]

    /// Runs several `;`-separated statements without parameters (migrations, pragmas).
    func executeScript(_ sql: String) throws(StoreError)

    /// Whether a transaction is open (the backend may have ended one itself after an error).
    var isInTransaction: Bool { get }
}

extension SQLConnection {
    /// The first row of a query, or `nil` when it has none.
    public func queryFirst(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> SQLRow? {
        try query(sql, parameters).first
    }
}

/// Where the supported backends' SQL differs.
public enum SQLDialect: Sendable {
    case sqlite
    case postgres
}
