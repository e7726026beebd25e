/// Durable storage for everything Hearth keeps. Implementations: `SQLiteStore` (embedded,
/// the default) and `PostgresStore` (several nodes on one database).
///
/// The contract every implementation must keep, checked by `StoreContractTests`:
/// * `write` returns only after its changes are durable (committed and synced); if it throws,
///   none of its changes are visible, and other writers' changes are unaffected.
/// * Concurrent `write` calls may share one transaction and one sync (group commit), but each
///   behaves as if it ran alone, in some serial order.
/// * `read` sees every write acknowledged before it started, and one consistent snapshot.
/// * A `StoreWrite` whose plan throws changes nothing and fails alone; one whose apply throws
///   a `StoreError` fails with every write of its group; its after-commit step runs only once
///   its changes are durable.
/// * Writes queued with `enqueueWrite` are applied in order with later writes, without a
///   caller waiting; they may be lost in a crash.
public protocol Store: Sendable {
    /// Runs `body` against a consistent snapshot of the store, on the calling thread.
    func read<Result>(_ body: (ReadTransaction) throws -> Result) throws -> Result

    /// Runs `body` in a write transaction and returns after that transaction is durable.
    /// `body` runs on the store's writer, in a savepoint of its own (whatever it throws
    /// undoes its changes alone), and must not block on anything but the store.
    @discardableResult
    func write<Result: Sendable>(_ body: @escaping @Sendable (WriteTransaction) throws -> Result) throws -> Result

    /// Runs `body` like `write`, but returns at once: `completion` is called with the result
    /// once the transaction is durable, or with the error. For callers that must not hold a
    /// thread while the commit happens (deferred HTTP answers).
    func write<Value: Sendable>(
        _ body: @escaping @Sendable (WriteTransaction) throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    )

    /// Runs `write`'s plan and apply steps in one write transaction, then, once it is
    /// durable, its after-commit step on the calling thread; answers what that returned.
    /// No savepoint: a plan's refusal changes nothing, and apply throws only `StoreError`.
    @discardableResult
    func write<Plan, Value, Answer>(_ write: StoreWrite<Plan, Value, Answer>) throws -> Answer

    /// Runs `write` like `write(_:)`, but returns at once: `completion` is called with the
    /// after-commit step's answer (run on the thread that learns of the durability, never
    /// inside a transaction), or with the error.
    func write<Plan, Value, Answer>(
        _ write: StoreWrite<Plan, Value, Answer>,
        completion: @escaping @Sendable (Result<Answer, any Error>) -> Void
    )

    /// Queues a write nobody waits for (bookkeeping such as last-seen times).
    func enqueueWrite(_ body: @escaping @Sendable (WriteTransaction) throws -> Void)

    /// Calls `changed`, on a thread of the store's, soon after any connection commits a write
    /// that announced `topic` (`WriteTransaction.announce`), and after every gap in listening
    /// (the database restarted: what changed meanwhile went unheard), until the store closes.
    /// A store that cannot hear other processes' writes (SQLite) never calls it.
    func watch(_ topic: StoreTopic, _ changed: @escaping @Sendable () -> Void)

    /// Calls `changed`, on a thread of the store's, each time the database starts or stops
    /// answering (`health` then says which), until the store closes. An embedded database
    /// (SQLite) always answers and never calls it.
    func watchHealth(_ changed: @escaping @Sendable () -> Void)

    /// Whether the database answers, as the store last found it. While it does not, every
    /// operation fails at once as `.unavailable`.
    var health: StoreHealth { get }

    /// Applies queued writes, then closes every connection. Later calls throw `.closed`.
    func close()

    /// Counters for metrics and for checking that writes are grouped.
    var statistics: StoreStatistics { get }
}

/// Whether a store's database answers.
public enum StoreHealth: Sendable, Equatable {
    case answering
    /// The database stopped answering (down, restarting, paused, out of reach).
    case notAnswering
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
