import HearthBase

private let passiveCheckpoint = SQLStatement("PRAGMA wal_checkpoint(PASSIVE)")

/// Copies committed pages from the write-ahead log back into the database file on its own
/// thread and connection, so that little is left for the checkpoints the writer runs itself.
///
/// The writer checkpoints after a commit that leaves the log at 1000 frames or more (on its
/// own thread, `SQLiteConnection.checkpointIfLogReaches`): it copies every page committed
/// since the last checkpoint and syncs the database file, and the next group waits for it.
/// This thread runs a passive checkpoint
/// (it never blocks the writer or readers) every `intervalMilliseconds` after new commits, so
/// by the time the writer's turn comes most pages are already copied. The writer's own
/// checkpoint is kept on purpose: it runs between two of its transactions, so it can copy the
/// log's very end, and the next write then starts the log over. (Leaving every checkpoint to
/// this thread and rewinding the log only now and then made the writer stall for 60-200 ms
/// at each rewind on this project's CI machine: create's p99 went from 19 to 65 ms.)
///
/// Every interval it also lets idle readers' snapshots go (`beforeCheckpoint`).
final class WriteAheadLogCheckpointer: Sendable {
    private let progress = Progress()
    private let worker: PeriodicWorker

    /// Starts the thread. `connection` is used by that thread only from now on.
    /// - Parameter beforeCheckpoint: lets go of snapshots nobody is using (they would keep
    ///   this and other processes' checkpoints from copying newer pages); runs every interval.
    /// - Parameter commits: the writer's running count of commits (checkpoint only after new ones).
    init(
        connection: sending SQLiteConnection,
        intervalMilliseconds: Int,
        commits: @escaping @Sendable () -> Int,
        beforeCheckpoint: @escaping @Sendable () -> Void,
        report: @escaping @Sendable (String) -> Void
    ) {
        let box = CheckpointConnection(connection)
        worker = PeriodicWorker(named: "wal-checkpoint", intervalMilliseconds: intervalMilliseconds) { [progress] in
            beforeCheckpoint()
            guard progress.hasNewCommits(commits()) else { return }
            do {
                _ = try box.connection.queryFirst(passiveCheckpoint, [])
                if let failures = progress.noteSuccess() {
                    report("background checkpoints run again, after \(failures) failed")
                }
            } catch {
                // Once per episode: on a full disk this fails every interval.
                if progress.noteFailure() { report("background checkpoint failed: \(error)") }
            }
        }
    }

    /// Stops the thread (SQLite checkpoints the rest when the last connection closes).
    func stop() {
        worker.stop()
    }

    /// `@unchecked Sendable`: read and written by the worker's thread only.
    private final class Progress: @unchecked Sendable {
        /// The writer's commit count at the last checkpoint.
        private var checkpointedCommits = 0
        /// Checkpoints failed since the last that succeeded; `nil` while they succeed.
        private var failures: Int?

        /// Whether this failure starts an episode (the first since a success).
        func noteFailure() -> Bool {
            defer { failures = (failures ?? 0) + 1 }
            return failures == nil
        }

        /// The failures this success ends, if it ends an episode.
        func noteSuccess() -> Int? {
            defer { failures = nil }
            return failures
        }

        func hasNewCommits(_ now: Int) -> Bool {
            defer { checkpointedCommits = now }
            return checkpointedCommits != now
        }
    }
}

/// Hands the checkpoint connection to the worker's thread, which then owns it alone.
private final class CheckpointConnection: @unchecked Sendable {
    let connection: SQLiteConnection
    init(_ connection: SQLiteConnection) { self.connection = connection }
}
