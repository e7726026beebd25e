/// Durable storage for everything Hearth keeps. Implementations: `SQLiteStore` (embedded,
/// the default) and, later, PostgreSQL for several nodes on one database.
///
/// The contract every implementation must keep, checked by `StoreContractTests`:
/// * `write` returns only after its changes are durable (committed and synced); if it throws,
///   none of its changes are visible, and other writers' changes are unaffected.
/// * Concurrent `write` calls may share one transaction and one sync (group commit), but each
///   behaves as if it ran alone, in some serial order.
/// * `read` sees every write acknowledged before it started, and one consistent snapshot.
/// * Writes queued with `enqueueWrite` are applied in order with later writes, without a
///   caller waiting; they may be lost in a crash.
public protocol Store: Sendable {
    /// Runs `body` against a consistent snapshot of the store, on the calling thread.
    func read<Result>(_ body: (ReadTransaction) throws -> Result) throws -> Result

    /// Runs `body` in a write transaction and returns after that transaction is durable.
    /// `body` runs on the store's writer and must not block on anything but the store.
    @discardableResult
    func write<Result: Sendable>(_ body: @escaping @Sendable (WriteTransaction) throws -> Result) throws -> Result

    /// Runs `body` like `write`, but returns at once: `completion` is called (on the store's
    /// writer) with the result once the transaction is durable, or with the error. For
    /// callers that must not hold a thread while the commit happens (deferred HTTP answers).
    ///
    /// A `guarded` body runs in a savepoint of its own, so whatever it throws undoes its changes
    /// alone. An unguarded one saves that (~10 µs of the writer's time per write) and must
    /// throw only before its first change, or having undone its changes itself — except a
    /// `StoreError`, which fails every write of its group (SQLite's own failures mostly doom
    /// the transaction anyway).
    func write<Value: Sendable>(
        _ body: @escaping @Sendable (WriteTransaction) throws -> Value,
        guarded: Bool,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    )

    /// Queues a write nobody waits for (bookkeeping such as last-seen times).
    func enqueueWrite(_ body: @escaping @Sendable (WriteTransaction) throws -> Void)

    /// Applies queued writes, then closes every connection. Later calls throw `.closed`.
    func close()

    /// Counters for metrics and for checking that writes are grouped.
    var statistics: StoreStatistics { get }
}

/// How many write transactions were committed, and how many writes they carried.
public struct StoreStatistics: Sendable, Equatable {
    public var commits: Int
    public var writes: Int

    public init(commits: Int, writes: Int) {
        self.commits = commits
        self.writes = writes
    }
}

/// Read access during a `read` or `write`. Each area of the store adds its queries in an
/// extension of `StoreReading` (`StoreReading+Projects.swift`, ...).
public protocol StoreReading {
    var connection: any SQLConnection { get }
}

/// A read-only view of the store.
public struct ReadTransaction: StoreReading {
    public let connection: any SQLConnection
    init(connection: any SQLConnection) { self.connection = connection }
}

/// The changes of one `write`. Areas add their statements in extensions of this type.
public struct WriteTransaction: StoreReading {
    public let connection: any SQLConnection
    /// The writer's memory of rows that are stored for good (`nil`: insert every time).
    let permanentRows: PermanentRows?

    init(connection: any SQLConnection, permanentRows: PermanentRows? = nil) {
        self.connection = connection
        self.permanentRows = permanentRows
    }
}

extension Store {
    /// `write(_:guarded:completion:)` with the body in a savepoint of its own.
    public func write<Value: Sendable>(
        _ body: @escaping @Sendable (WriteTransaction) throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        write(body, guarded: true, completion: completion)
    }
}
