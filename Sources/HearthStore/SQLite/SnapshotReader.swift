import Dispatch
import Synchronization

/// A read-only connection that can keep its read transaction open from one read to the next,
/// reusing it while nothing has been committed anywhere (the log index header is unchanged),
/// for at most `maximumSnapshotAgeNanoseconds`. A lookup on a busy read path then costs the
/// statement alone: no `BEGIN`, no `COMMIT`, and none of the file locks and process-wide
/// mutexes SQLite takes to start and end a read transaction, which cost more than the lookup
/// itself once two threads read at once.
///
/// Reusing the snapshot keeps `read`'s promise (it sees every write acknowledged before it
/// started): the header is recorded before the snapshot is taken, so an unchanged header
/// means no commit happened since, and a commit changes the header before it is acknowledged.
///
/// An open snapshot holds back checkpoints (this process's and others'), and the log's
/// rewind; so the store keeps snapshots only while no writes come in, and ends idle readers'
/// snapshots every tenth of a second.
///
/// `@unchecked Sendable`: used by one thread at a time, handed over through `ReaderPool`'s lock.
final class SnapshotReader: @unchecked Sendable {
    static let maximumSnapshotAgeNanoseconds: UInt64 = 200_000_000

    let connection: SQLiteConnection

    private struct Snapshot {
        /// The header recorded just before the transaction began (`nil` when it could not be
        /// read: then the transaction is never reused).
        var header: WriteAheadLogIndex.Header?
        /// `DispatchTime` uptime when it began, in nanoseconds.
        var startedAt: UInt64
    }

    /// The open read transaction, if any.
    private var snapshot: Snapshot?

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    deinit {
        endSnapshot()
    }

    /// Runs `body` in a read transaction that sees every commit made before this call. With
    /// `keepingSnapshot`, the transaction stays open for the next read; otherwise it ends.
    func read<Result>(
        index: WriteAheadLogIndex,
        keepingSnapshot: Bool,
        _ body: (ReadTransaction) throws -> Result
    ) throws -> Result {
        let header = index.header()
        let now = DispatchTime.now().uptimeNanoseconds
        if let snapshot, let recorded = snapshot.header, let header, recorded == header,
            now &- snapshot.startedAt < Self.maximumSnapshotAgeNanoseconds
        {
            // Nothing committed since the snapshot was taken: it is still the newest.
        } else {
            endSnapshot()
            try connection.execute(beginSnapshot, [])
            snapshot = Snapshot(header: header, startedAt: now)
        }
        do {
            let result = try body(ReadTransaction(connection: connection))
            if !keepingSnapshot { endSnapshot() }
            return result
        } catch {
            endSnapshot()
            throw error
        }
    }

    /// Ends the open read transaction, if any, so it no longer holds back checkpoints.
    func endSnapshot() {
        guard snapshot != nil else { return }
        snapshot = nil
        _ = try? connection.execute(.commit, [])
    }
}

/// Idle readers, kept open for reuse (the most recently returned is handed out first).
final class ReaderPool: Sendable {
    private let idle = Mutex<[SnapshotReader]>([])
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// An idle reader, or `nil` when there is none.
    func borrow() -> SnapshotReader? {
        idle.withLock { $0.popLast() }
    }

    /// Keeps `reader` for reuse, or drops it (closing its connection) when enough are kept.
    func giveBack(_ reader: SnapshotReader) {
        let dropped: SnapshotReader? = idle.withLock { idle in
            guard idle.count < capacity else { return reader }
            idle.append(reader)
            return nil
        }
        dropped?.endSnapshot()
    }

    /// Ends the snapshots idle readers hold, so none holds back a checkpoint while unused.
    func endIdleSnapshots() {
        idle.withLock { idle in
            for reader in idle { reader.endSnapshot() }
        }
    }

    func removeAll() {
        idle.withLock { $0.removeAll() }
    }
}

/// A deferred transaction: the snapshot is taken at the read's first statement.
private let beginSnapshot = SQLStatement("BEGIN")
