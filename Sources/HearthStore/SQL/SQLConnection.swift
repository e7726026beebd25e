/// One open database connection that runs parameterised SQL statements (`SQLStatement`).
/// A connection prepares a statement the first time it runs it and keeps it prepared, found by
/// the statement's identity, until the connection closes; a one-off statement it prepares,
/// runs and drops.
///
/// A connection is used by one thread at a time: the store hands it to exactly one reader or
/// to the writer, never to two callers at once.
public protocol SQLConnection: AnyObject {
    /// The SQL flavour, for the few steps that differ between backends beyond one statement's
    /// text (migration scripts, settings only one backend has).
    var dialect: SQLDialect { get }

    /// Runs a statement that returns no rows and answers how many rows it changed.
    @discardableResult
    func execute(_ statement: SQLStatement, _ parameters: [SQLValue]) throws(StoreError) -> Int

    /// Runs a query and answers every row.
    func query(_ statement: SQLStatement, _ parameters: [SQLValue]) throws(StoreError) -> [SQLRow]

    /// Runs several `;`-separated statements without parameters (migrations, pragmas), as
    /// written and without keeping anything prepared.
    func executeScript(_ sql: String) throws(StoreError)

    /// Whether a transaction is open (the backend may have ended one itself after an error).
    var isInTransaction: Bool { get }
}

extension SQLConnection {
    /// The first row of a query, or `nil` when it has none.
    public func queryFirst(_ statement: SQLStatement, _ parameters: [SQLValue]) throws(StoreError) -> SQLRow? {
        try query(statement, parameters).first
    }
}

/// Where the supported backends' SQL differs.
public enum SQLDialect: Sendable {
    case sqlite
    case postgres
}
