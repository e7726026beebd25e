import Dispatch
import HearthBase
import Synchronization

/// Serialises writes onto one connection and commits them in groups: every write waiting
/// when the writer becomes free joins one transaction, and all of them are released after
/// its single commit is durable. A plain write runs inside its own savepoint, so one that
/// throws is rolled back alone. A `StoreWrite` runs without one: its plan reads on this
/// connection (whose page cache stays warm from write to write, and whose reads hold until
/// the commit because this is the only writer) and changes nothing, so its refusal needs no
/// undo; its apply throws only `StoreError`, which fails the whole group.
///
/// With `syncAfterCommit`, commits are not synced by the database itself: a second thread
/// makes them durable (one sync for every group committed since the last) while the writer
/// already runs the next group, and only then releases their callers. Other readers may see
/// a committed group a moment before it is durable; its callers never hear of it before.
final class GroupCommitWriter: Sendable {
    private struct Queue {
        var pending: [PendingWrite] = []
        var isClosed = false
        var isStopped = false
    }

    /// Groups committed and waiting for the sync that makes them durable.
    private struct Unsynced {
        var groups: [[PendingWrite]] = []
        var writerStopped = false
        var isStopped = false
    }

    private let queue = ConditionLock(Queue())
    private let unsynced = ConditionLock(Unsynced())
    private let syncAfterCommit: (@Sendable () throws -> Void)?
    private let committedWrites = Atomic<Int>(0)
    private let commits = Atomic<Int>(0)
    /// `DispatchTime` uptime of the latest commit, in nanoseconds (0 before the first).
    private let lastCommitUptime = Atomic<UInt64>(0)
    private let maximumBatch: Int
    /// How often a group the database rolled back as the loser of a race is run again.
    private let conflictRetries: Int
    private let afterCommit: (@Sendable (any SQLConnection) throws -> Void)?
    private let report: @Sendable (String) -> Void
    /// Rows this writer saw committed that are never deleted; its thread's alone.
    private let permanentRows = PermanentRows()
    /// Writes refused since the store last failed to write (`nil` while it writes): the cause
    /// is reported once per episode, and the recovery once, not every refused write.
    private let refusedSinceFailure = Mutex<Int?>(nil)

    /// Starts the writer thread. `connection` is used by that thread only from now on.
    /// - Parameter syncAfterCommit: makes every commit so far durable (an fsync of the
    ///   write-ahead log); `nil` when the database syncs each commit itself.
    /// - Parameter afterCommit: runs on the writer's connection after each commit, once the
    ///   group is on its way to the syncer (or its callers), before the next group starts.
    /// - Parameter conflictRetries: how often a group is run again, whole, when the database
    ///   rolled it back as the loser of a deadlock or serialization conflict (PostgreSQL with
    ///   other writers; SQLite has one writer and never reports one).
    init(
        connection: sending any SQLConnection,
        maximumBatch: Int = 512,
        conflictRetries: Int = 0,
        syncAfterCommit: (@Sendable () throws -> Void)? = nil,
        afterCommit: (@Sendable (any SQLConnection) throws -> Void)? = nil,
        report: @escaping @Sendable (String) -> Void
    ) {
        self.maximumBatch = maximumBatch
        self.conflictRetries = conflictRetries
        self.afterCommit = afterCommit
        self.report = report
        self.syncAfterCommit = syncAfterCommit
        let box = ConnectionBox(connection)
        startBackgroundThread(named: "store-writer") { [self] in
            self.run(box.connection)
        }
        if let syncAfterCommit {
            startBackgroundThread(named: "store-syncer") { [self] in
                self.runSyncer(syncAfterCommit)
            }
        } else {
            unsynced.withLockThenBroadcast { $0.isStopped = true }
        }
    }

    func write<Result: Sendable>(_ body: @escaping @Sendable (WriteTransaction) throws -> Result) throws -> Result {
        let outcome = OutcomeBox<Result>()
        let pending = PendingWrite(
            waits: true,
            body: .inSavepoint { transaction in outcome.value = try body(transaction) }
        )
        try submit(pending)
        pending.done.wait()
        if let error = pending.error { throw error }
        guard let value = outcome.value else { preconditionFailure("write finished without a result") }
        return value
    }

    /// Queues `body`; `completion` runs after the commit is durable (or the write failed), on
    /// the syncer's thread, or the writer's when the database syncs each commit itself.
    func write<Value: Sendable>(
        _ body: @escaping @Sendable (WriteTransaction) throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        let outcome = OutcomeBox<Value>()
        let pending = PendingWrite(
            waits: false,
            body: .inSavepoint { transaction in outcome.value = try body(transaction) }
        )
        pending.completion = { error in
            if let error {
                completion(.failure(error))
            } else if let value = outcome.value {
                completion(.success(value))
            }
        }
        do {
            try submit(pending)
        } catch {
            completion(.failure(error))
        }
    }

    /// Runs `write`'s plan and apply in the next group, then its after-commit step on the
    /// calling thread once the group is durable.
    func write<Plan, Value, Answer>(_ write: StoreWrite<Plan, Value, Answer>) throws -> Answer {
        let outcome = OutcomeBox<Value>()
        let pending = PendingWrite(waits: true, body: .planned(Self.steps(of: write, into: outcome)))
        try submit(pending)
        pending.done.wait()
        if let error = pending.error { throw error }
        guard let value = outcome.value else { preconditionFailure("write finished without a result") }
        return try write.afterCommit(value)
    }

    /// Queues `write`; its after-commit step and then `completion` run where a plain write's
    /// completion does, once the group is durable (only `completion`, if the write failed).
    func write<Plan, Value, Answer>(
        _ write: StoreWrite<Plan, Value, Answer>,
        completion: @escaping @Sendable (Result<Answer, any Error>) -> Void
    ) {
        let outcome = OutcomeBox<Value>()
        let pending = PendingWrite(waits: false, body: .planned(Self.steps(of: write, into: outcome)))
        pending.completion = { error in
            if let error {
                completion(.failure(error))
            } else if let value = outcome.value {
                completion(Result { try write.afterCommit(value) })
            }
        }
        do {
            try submit(pending)
        } catch {
            completion(.failure(error))
        }
    }

    /// The plan and apply steps of `write` as the writer runs them, apply's value kept in
    /// `outcome`.
    private static func steps<Plan, Value, Answer>(
        of write: StoreWrite<Plan, Value, Answer>,
        into outcome: OutcomeBox<Value>
    ) -> @Sendable (WriteTransaction) throws(PlannedWriteFailure) -> Void {
        { transaction throws(PlannedWriteFailure) in
            let plan: Plan
            do {
                plan = try write.plan(ReadTransaction(connection: transaction.connection))
            } catch {
                throw .refused(error)
            }
            do throws(StoreError) {
                outcome.value = try write.apply(plan, transaction)
            } catch {
                throw .failed(error)
            }
        }
    }

    func enqueue(_ body: @escaping @Sendable (WriteTransaction) throws -> Void) {
        let pending = PendingWrite(waits: false, body: .inSavepoint(body))
        do {
            try submit(pending)
        } catch {
            report("queued write dropped: \(error)")
        }
    }

    /// Refuses new writes, applies the queued ones and stops the thread.
    func close() {
        queue.withLockThenBroadcast { $0.isClosed = true }
        queue.wait(until: { $0.isStopped }) { _ in }
        unsynced.withLockThenBroadcast { $0.writerStopped = true }
        unsynced.wait(until: { $0.isStopped }) { _ in }
    }

    private func submit(_ pending: PendingWrite) throws {
        try queue.withLockThenBroadcast { queue in
            if queue.isClosed { throw StoreError(.closed, "the store is closed") }
            queue.pending.append(pending)
        }
    }

    private func run(_ connection: any SQLConnection) {
        while true {
            let (batch, closing) = queue.wait(until: { !$0.pending.isEmpty || $0.isClosed }) {
                queue -> ([PendingWrite], Bool) in
                let count = min(queue.pending.count, maximumBatch)
                let batch = Array(queue.pending.prefix(count))
                queue.pending.removeFirst(count)
                return (batch, queue.isClosed && queue.pending.isEmpty)
            }
            if !batch.isEmpty { commit(batch, on: connection) }
            if closing { break }
        }
        queue.withLockThenBroadcast { $0.isStopped = true }
    }

    private func commit(_ batch: [PendingWrite], on connection: any SQLConnection) {
        var retries = 0
        while !commitOnce(batch, on: connection, mayRetry: retries < conflictRetries) {
            retries += 1
            for pending in batch { pending.error = nil }
        }
    }

    /// Runs the group in one transaction; answers `false` when it lost a race and was rolled
    /// back to be run again (only if `mayRetry`), `true` once its writes are settled.
    private func commitOnce(_ batch: [PendingWrite], on connection: any SQLConnection, mayRetry: Bool) -> Bool {
        let transaction = WriteTransaction(connection: connection, permanentRows: permanentRows)
        /// Ends the transaction after a failure: run again, or failed whole.
        func abandon(_ error: any Error) -> Bool {
            rollback(connection)
            if mayRetry, (error as? StoreError)?.isRetryable == true { return false }
            finish(batch, failure: error)
            return true
        }
        do {
            try connection.execute(beginGroup, [])
        } catch {
            finish(batch, failure: error)
            return true
        }
        for pending in batch {
            let body: @Sendable (WriteTransaction) throws -> Void
            switch pending.body {
            case .planned(let steps):
                do throws(PlannedWriteFailure) {
                    try steps(transaction)
                } catch {
                    switch error {
                    case .refused(let refusal):
                        pending.error = refusal  // by its plan, which changed nothing
                    case .failed(let failure):
                        // It may have changed something before failing: nothing of the group is kept.
                        return abandon(failure)
                    }
                }
                continue
            case .inSavepoint(let savepointed):
                body = savepointed
            }
            do {
                try connection.execute(beginWrite, [])
                let mark = permanentRows.mark
                do {
                    try body(transaction)
                    try connection.execute(endWrite, [])
                } catch let error as StoreError where mayRetry && error.isRetryable {
                    // The database rolled the whole group back as a race's loser: all again.
                    return abandon(error)
                } catch {
                    pending.error = error
                    permanentRows.rollBack(to: mark)
                    try connection.execute(undoWrite, [])
                    try connection.execute(endWrite, [])
                }
            } catch {
                // The savepoint machinery itself failed: the transaction can't be trusted.
                return abandon(error)
            }
        }
        do {
            try connection.execute(.commit, [])
        } catch {
            return abandon(error)
        }
        permanentRows.transactionCommitted()
        noteCommitted()
        commits.add(1, ordering: .relaxed)
        lastCommitUptime.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        committedWrites.add(batch.count, ordering: .relaxed)
        if syncAfterCommit != nil {
            unsynced.withLockThenBroadcast { $0.groups.append(batch) }
        } else {
            finish(batch, failure: nil)
        }
        if let afterCommit {
            do {
                try afterCommit(connection)
            } catch {
                report("after-commit step failed: \(error)")
            }
        }
        return true
    }

    /// Makes committed groups durable, several per sync when the writer is ahead, and
    /// releases their callers.
    private func runSyncer(_ sync: @Sendable () throws -> Void) {
        while true {
            let (groups, done) = unsynced.wait(until: { !$0.groups.isEmpty || $0.writerStopped }) {
                state -> ([[PendingWrite]], Bool) in
                defer { state.groups.removeAll() }
                return (state.groups, state.writerStopped)
            }
            if !groups.isEmpty {
                var failure: (any Error)?
                do {
                    try sync()
                } catch {
                    failure = error
                }
                for group in groups { finish(group, failure: failure) }
            }
            if done && groups.isEmpty { break }
        }
        unsynced.withLockThenBroadcast { $0.isStopped = true }
    }

    /// Whether nothing was committed in the last `milliseconds`.
    func hasBeenQuiet(forMilliseconds milliseconds: UInt64) -> Bool {
        let last = lastCommitUptime.load(ordering: .relaxed)
        return DispatchTime.now().uptimeNanoseconds &- last >= milliseconds * 1_000_000
    }

    var statistics: StoreStatistics {
        StoreStatistics(
            commits: commits.load(ordering: .relaxed),
            writes: committedWrites.load(ordering: .relaxed)
        )
    }

    /// Ends a failed transaction. SQLite rolls a transaction back by itself after some errors
    /// (a full disk, an I/O error), so a `ROLLBACK` is sent only while one is still open.
    private func rollback(_ connection: any SQLConnection) {
        permanentRows.transactionRolledBack()
        guard connection.isInTransaction else { return }
        do {
            try connection.execute(.rollback, [])
        } catch {
            report("rollback failed: \(error)")
        }
    }

    /// Reports the first failure of an episode of failed writes, and counts the rest.
    private func noteFailure(_ failure: any Error) {
        let first = refusedSinceFailure.withLock { refused in
            defer { refused = (refused ?? 0) + 1 }
            return refused == nil
        }
        if first { report("the store cannot write (answering 503 until it can): \(failure)") }
    }

    private func noteCommitted() {
        guard let refused = refusedSinceFailure.withLock({ $0.take() }) else { return }
        report("the store writes again, after \(refused) refused writes")
    }

    private func finish(_ batch: [PendingWrite], failure: (any Error)?) {
        let unavailable = (failure as? StoreError)?.isUnavailable == true
        if let failure, unavailable { noteFailure(failure) }
        for pending in batch {
            if let failure, pending.error == nil { pending.error = failure }
            if pending.waits {
                pending.done.signal()
            } else if let completion = pending.completion {
                completion(pending.error)
            } else if let error = pending.error, !unavailable {
                report("queued write failed: \(error)")
            }
        }
    }
}

/// How the writer's transaction begins. On SQLite, `IMMEDIATE` takes the write lock up front,
/// so another process's writer makes this one wait (busy timeout) instead of failing half-way
/// through the group. On PostgreSQL the isolation level is stated, not left to the server's
/// default: the areas' conditional updates are written for read committed (see `PostgresStore`).
private let beginGroup = SQLStatement(sqlite: "BEGIN IMMEDIATE", postgres: "BEGIN ISOLATION LEVEL READ COMMITTED")

/// The savepoint around a plain write: begun before it, released after it, and rolled back to
/// (then released) when it throws.
private let beginWrite = SQLStatement("SAVEPOINT write_job")
private let endWrite = SQLStatement("RELEASE write_job")
private let undoWrite = SQLStatement("ROLLBACK TO write_job")

/// How a write runs: a plain body in a savepoint of its own, or a `StoreWrite`'s plan and
/// apply steps without one.
private enum WriteBody {
    case inSavepoint(@Sendable (WriteTransaction) throws -> Void)
    case planned(@Sendable (WriteTransaction) throws(PlannedWriteFailure) -> Void)
}

/// How a `StoreWrite`'s steps failed: its plan refused (nothing changed), or its apply met a
/// store failure (something may have changed).
private enum PlannedWriteFailure: Error {
    case refused(any Error)
    case failed(StoreError)
}

/// One write waiting for the writer. The writer thread sets `error` before signalling
/// `done`, and the caller reads it only after the signal, so the fields need no lock.
private final class PendingWrite: @unchecked Sendable {
    let waits: Bool
    let body: WriteBody
    let done = DispatchSemaphore(value: 0)
    var error: (any Error)?
    /// For writes nobody blocks on: called on the writer thread when the write is settled.
    var completion: (@Sendable ((any Error)?) -> Void)?

    init(waits: Bool, body: WriteBody) {
        self.waits = waits
        self.body = body
    }
}

/// Carries a write's result from the writer thread to the caller; ordered by `done`.
private final class OutcomeBox<Value>: @unchecked Sendable {
    var value: Value?
}

/// Hands the writer's connection to its thread, which then owns it alone.
private final class ConnectionBox: @unchecked Sendable {
    let connection: any SQLConnection
    init(_ connection: any SQLConnection) { self.connection = connection }
}
