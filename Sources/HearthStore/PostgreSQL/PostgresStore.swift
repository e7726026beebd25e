import Dispatch
import HearthBase
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a `read` begins (see the isolation levels below).
private let beginRead = SQLStatement("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

/// The store on a PostgreSQL server that several Hearth nodes may share.
///
/// Isolation per operation:
/// * A `read` runs in a `REPEATABLE READ READ ONLY` transaction on a connection of a bounded
///   pool: all its statements see one snapshot, taken at its first statement, so it sees every
///   write acknowledged before it started.
/// * Writes go through group-committing writers (`GroupCommitWriter`, as on SQLite), each on a
///   connection of its own, in `READ COMMITTED` transactions: every statement sees what was
///   committed before it, and the conditional updates the areas use (claims, consuming a code,
///   conditional upserts) re-check their conditions on the row they lock, so two nodes never
///   both win the same row. A group the server rolls back as the loser of a deadlock or a
///   serialization conflict is run again.
///
/// The connections reconnect by themselves: one found broken is reopened when next used
/// (between transactions), and while the server cannot be reached every operation fails at
/// once as `.unavailable` (answered 503), one attempt a moment telling when it is back.
///
/// A probe (`store-probe`) asks the server `SELECT 1` every second on a connection of its
/// own. Once two probes in a row get no answer in time, and no other connection gets one
/// meanwhile — the server is down, restarting, paused or out of reach — the store is
/// `.notAnswering`: every operation fails at once instead of joining
/// those already waiting (each for at most the answer timeout), and `watchHealth` observers
/// hear of it, and of the first answer after.
public final class PostgresStore: Store {
    public struct Configuration: Sendable {
        /// A libpq connection URL (`postgres://user@host:port/database?sslmode=...`), passed
        /// to libpq as it is: TLS and other options in it apply.
        public var url: String
        /// Read connections at most; a read waits for one when all are busy. Sized to the HTTP
        /// worker threads (reads run on them), so none waits for another's read.
        public var maximumReaders = 32
        /// How long a read waits for a pooled connection before it is refused as unavailable.
        public var readerWaitMilliseconds = 5_000
        /// Group-committing writers, each with a connection of its own. With one, a group's
        /// statements wait while the previous group's commit waits for the server's WAL flush;
        /// with two, one writer's commit overlaps the other's statements, which roughly doubles
        /// the durable writes a node makes per second on a server that syncs each commit. More
        /// add little (each group already carries every waiting write) and, like any two, may
        /// deadlock with each other (the group is then run again). A thread's writes always go
        /// to the same writer, so writes it queued are applied before its later ones.
        public var writers = 2
        public var maximumBatch = 512
        /// How often a group rolled back by a deadlock or serialization failure is run again.
        public var conflictRetries = 5
        /// libpq's `connect_timeout`, unless the URL sets it.
        public var connectTimeoutSeconds = 5
        /// The server's `statement_timeout` for every statement, unless the URL's `options`
        /// set one: a statement stuck behind a lock or on a sick server fails (503) instead of
        /// holding its thread.
        public var statementTimeoutMilliseconds = 10_000
        /// After a failed connection attempt, operations fail at once for this long.
        public var reconnectIntervalMilliseconds: UInt64 = 500
        /// How long a statement waits for the server's answer before its connection is given
        /// up: longer than the statement timeout, so the server's own cancellation is heard.
        public var answerTimeoutMilliseconds = 12_000
        /// How often the probe asks the server whether it answers, and how long it waits.
        public var probeIntervalMilliseconds = 1_000
        public var probeAnswerTimeoutMilliseconds = 2_000

        public init(url: String) { self.url = url }
    }

    private let configuration: Configuration
    private let open: @Sendable () throws(StoreError) -> PostgresConnection
    private let writers: [GroupCommitWriter]
    private let readers: PostgresConnectionPool
    private let isClosed = Atomic<Bool>(false)
    private let availability: PostgresServerAvailability
    private let probe: PeriodicWorker
    /// Who `watch` calls, by notification channel, and whether the listening thread runs.
    private let watchers = Mutex<(byChannel: [String: [@Sendable () -> Void]], isListening: Bool)>(([:], false))
    /// The schema steps opening this store applied, in order (none when it was up to date).
    public let appliedMigrations: [Migration]

    /// Connects and brings the schema up to date.
    public init(
        _ configuration: Configuration,
        migrations: [Migration] = Schema.migrations,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(StoreError) {
        self.configuration = configuration
        let availability = PostgresServerAvailability(
            retryIntervalMilliseconds: configuration.reconnectIntervalMilliseconds
        )
        // Defaults first, the URL last: libpq keeps the last value of a key word, so the URL's win.
        let parameters = [
            ("application_name", "hearth"),
            ("connect_timeout", String(configuration.connectTimeoutSeconds)),
            ("options", "-c statement_timeout=\(configuration.statementTimeoutMilliseconds)"),
            ("dbname", configuration.url),
        ]
        self.availability = availability
        let open = { @Sendable () throws(StoreError) -> PostgresConnection in
            try PostgresConnection(
                parameters: parameters,
                availability: availability,
                answerTimeoutMilliseconds: configuration.answerTimeoutMilliseconds
            )
        }
        self.open = open
        let first = try open()
        appliedMigrations = try Migration.apply(migrations, on: first)
        var writers: [GroupCommitWriter] = []
        for index in 0..<max(1, configuration.writers) {
            let connection = index == 0 ? first : try open()
            writers.append(
                GroupCommitWriter(
                    connection: connection,
                    maximumBatch: configuration.maximumBatch,
                    conflictRetries: configuration.conflictRetries,
                    report: report
                )
            )
        }
        self.writers = writers
        readers = PostgresConnectionPool(
            capacity: configuration.maximumReaders,
            waitMilliseconds: configuration.readerWaitMilliseconds,
            open: open
        )
        probe = Self.startProbe(
            parameters: parameters,
            configuration: configuration,
            availability: availability,
            report: report
        )
    }

    /// Asks the server `SELECT 1` every probe interval and tells `availability` whether it
    /// answered within the probe's answer timeout (see the type's comment).
    private static func startProbe(
        parameters: [(String, String)],
        configuration: Configuration,
        availability: PostgresServerAvailability,
        report: @escaping @Sendable (String) -> Void
    ) -> PeriodicWorker {
        // Its connection attempts are bounded like its questions (libpq's least is 2 s), after
        // the URL's own `connect_timeout`, so that a second probe follows the first soon.
        let parameters =
            parameters + [
                ("connect_timeout", String(max(2, (configuration.probeAnswerTimeoutMilliseconds + 999) / 1_000)))
            ]
        // The probe's connection, and how many probes in a row have had no answer.
        let probing = Mutex<(connection: PostgresConnection?, unanswered: Int)>((nil, 0))
        let question = SQLStatement("SELECT 1")
        return PeriodicWorker(named: "store-probe", intervalMilliseconds: configuration.probeIntervalMilliseconds) {
            probing.withLock { probe in
                let asked = DispatchTime.now().uptimeNanoseconds
                do {
                    let asking =
                        try probe.connection
                        ?? PostgresConnection(
                            parameters: parameters,
                            availability: availability,
                            answerTimeoutMilliseconds: configuration.probeAnswerTimeoutMilliseconds
                        )
                    probe.connection = asking
                    _ = try asking.query(question, [])
                    probe.unanswered = 0
                    if availability.noteProbe(answered: true) { report("the database answers again") }
                } catch {
                    // Another connection's answer meanwhile says the server answers: the probe's
                    // own connection broke, or its thread was not scheduled in time (a busy host).
                    // One miss alone may be such a hiccup too; two in a row are not.
                    if availability.answered(since: asked) { return }
                    probe.unanswered += 1
                    if probe.unanswered >= 2, availability.noteProbe(answered: false) {
                        report("the database is not answering; operations fail at once until it does: \(error)")
                    }
                }
            }
        }
    }

    public func read<Result>(_ body: (ReadTransaction) throws -> Result) throws -> Result {
        if isClosed.load(ordering: .relaxed) { throw StoreError(.closed, "the store is closed") }
        try availability.checkAnswering()
        let connection = try readers.borrow()
        defer { readers.giveBack(connection) }
        try connection.execute(beginRead, [])
        do {
            let result = try body(ReadTransaction(connection: connection))
            try connection.execute(.commit, [])
            return result
        } catch {
            if connection.isInTransaction { _ = try? connection.execute(.rollback, []) }
            throw error
        }
    }

    @discardableResult
    public func write<Result: Sendable>(
        _ body: @escaping @Sendable (WriteTransaction) throws -> Result
    ) throws -> Result {
        try answeringWriter().get().write(body)
    }

    public func write<Value: Sendable>(
        _ body: @escaping @Sendable (WriteTransaction) throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        switch answeringWriter() {
        case .success(let writer): writer.write(body, completion: completion)
        case .failure(let error): completion(.failure(error))
        }
    }

    @discardableResult
    public func write<Plan, Value, Answer>(_ write: StoreWrite<Plan, Value, Answer>) throws -> Answer {
        try answeringWriter().get().write(write)
    }

    public func write<Plan, Value, Answer>(
        _ write: StoreWrite<Plan, Value, Answer>,
        completion: @escaping @Sendable (Result<Answer, any Error>) -> Void
    ) {
        switch answeringWriter() {
        case .success(let writer): writer.write(write, completion: completion)
        case .failure(let error): completion(.failure(error))
        }
    }

    public func enqueueWrite(_ body: @escaping @Sendable (WriteTransaction) throws -> Void) {
        writer().enqueue(body)
    }

    /// One thread (`store-listen`) listens for every watched topic on one connection of its
    /// own; it reconnects after the server restarts, and calls a topic's watchers once when it
    /// starts listening for it, for what they may have missed before.
    public func watch(_ topic: StoreTopic, _ changed: @escaping @Sendable () -> Void) {
        let startsListening = watchers.withLock { watchers -> Bool in
            watchers.byChannel[topic.channel, default: []].append(changed)
            defer { watchers.isListening = true }
            return !watchers.isListening
        }
        if startsListening { startBackgroundThread(named: "store-listen") { [self] in listen() } }
    }

    private func listen() {
        let reconnectMicroseconds = useconds_t(configuration.reconnectIntervalMilliseconds * 1_000)
        var listening: (connection: PostgresConnection, channels: Set<String>)?
        while !isClosed.load(ordering: .relaxed) {
            do {
                let connection = try listening?.connection ?? open()
                var channels = listening?.channels ?? []
                let watched = watchers.withLock { $0.byChannel }
                // Topics watched since the last turn, or every topic on a new connection.
                for (channel, calls) in watched where !channels.contains(channel) {
                    try connection.executeScript("LISTEN \(channel)")
                    channels.insert(channel)
                    for changed in calls { changed() }
                }
                listening = (connection, channels)
                // A short wait, so a closed store's thread ends soon and new topics join soon.
                for channel in try connection.awaitNotifications(timeoutMilliseconds: 250) {
                    for changed in watched[channel] ?? [] { changed() }
                }
            } catch {
                listening = nil
                usleep(reconnectMicroseconds)
            }
        }
    }

    public func watchHealth(_ changed: @escaping @Sendable () -> Void) {
        availability.observe(changed)
    }

    public var health: StoreHealth { availability.health }

    public var statistics: StoreStatistics {
        writers.map(\.statistics).reduce(StoreStatistics(commits: 0, writes: 0)) {
            StoreStatistics(commits: $0.commits + $1.commits, writes: $0.writes + $1.writes)
        }
    }

    public func close() {
        guard !isClosed.exchange(true, ordering: .relaxed) else { return }
        probe.stop()
        for writer in writers { writer.close() }
        readers.close()
    }

    /// The calling thread's writer, or why no write is tried: the server does not answer.
    private func answeringWriter() -> Result<GroupCommitWriter, StoreError> {
        Result { () throws(StoreError) in
            try availability.checkAnswering()
            return writer()
        }
    }

    /// The calling thread's writer: always the same one, so the thread's writes keep their order.
    private func writer() -> GroupCommitWriter {
        guard writers.count > 1 else { return writers[0] }
        var hasher = Hasher()
        #if canImport(Glibc)
            hasher.combine(UInt(pthread_self()))
        #else
            hasher.combine(UInt(bitPattern: pthread_self()))
        #endif
        return writers[Int(UInt(bitPattern: hasher.finalize()) % UInt(writers.count))]
    }
}

/// Open connections for reads, at most `capacity` of them: a read takes an idle one, opens
/// one while fewer than `capacity` are open, or waits for one to be given back.
final class PostgresConnectionPool: Sendable {
    private struct State {
        var idle: [PostgresConnection] = []
        var open = 0
        var isClosed = false
    }

    private let state = ConditionLock(State())
    private let capacity: Int
    private let waitMilliseconds: Int
    private let open: @Sendable () throws(StoreError) -> PostgresConnection

    init(capacity: Int, waitMilliseconds: Int, open: @escaping @Sendable () throws(StoreError) -> PostgresConnection) {
        self.capacity = max(1, capacity)
        self.waitMilliseconds = waitMilliseconds
        self.open = open
    }

    func borrow() throws(StoreError) -> PostgresConnection {
        let taken: Result<PostgresConnection?, StoreError> = state.wait(
            until: { !$0.idle.isEmpty || $0.open < capacity || $0.isClosed },
            timeoutMilliseconds: waitMilliseconds
        ) { state in
            if state.isClosed { return .failure(StoreError(.closed, "the store is closed")) }
            if let connection = state.idle.popLast() { return .success(connection) }
            guard state.open < capacity else {
                return .failure(StoreError(.unavailable, "every database connection stayed busy"))
            }
            state.open += 1
            return .success(nil)
        }
        if let connection = try taken.get() { return connection }
        do {
            return try open()
        } catch {
            state.withLockThenBroadcast { $0.open -= 1 }
            throw error
        }
    }

    /// Keeps `connection` for the next read, or lets it close once the pool is closed.
    func giveBack(_ connection: PostgresConnection) {
        state.withLockThenBroadcast { state in
            if state.isClosed {
                state.open -= 1
            } else {
                state.idle.append(connection)
            }
        }
    }

    /// Closes the idle connections; those in use close when given back.
    func close() {
        // Returned, the idle connections close as the array goes, outside the lock.
        _ = state.withLockThenBroadcast { state -> [PostgresConnection] in
            state.isClosed = true
            state.open -= state.idle.count
            defer { state.idle.removeAll() }
            return state.idle
        }
    }
}
