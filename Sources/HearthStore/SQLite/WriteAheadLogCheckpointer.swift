import HearthBase
import Synchronization

/// Copies committed pages from the write-ahead log back into the database file on its own
/// thread and connection, so the writer never stalls on a checkpoint's page writes and syncs.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its threshold, on the
/// writer's thread: the whole commit pipeline waits for thousands of page writes and two
/// fsyncs. Here the writer's connection has automatic checkpoints off; this thread runs a
/// passive checkpoint (never blocks the writer or readers) every `intervalMilliseconds`
/// after new commits, and lets idle readers' snapshots go every interval.
///
/// A passive checkpoint under steady load rarely catches the log's very end, and SQLite
/// rewinds the log only when a write starts with every frame copied and no reader inside the
/// log, so the log would grow for as long as the load lasts. When it passes `rewindFrames`,
/// the writer is asked to run a restarting checkpoint itself right after its next commit: the
/// background runs have already copied nearly everything, so it is short; it waits a few
/// milliseconds at most for readers still inside the log (reads are short), and then the
/// following write starts the log over. If readers stay, the next background run asks again.
final class WriteAheadLogCheckpointer: Sendable {
    private let progress = Progress()
    private let worker: PeriodicWorker
    /// The writer connection's usual busy timeout, restored after a rewind.
    private let busyTimeoutMilliseconds: Int32

    /// Starts the thread. `connection` is used by that thread only from now on.
    /// - Parameter beforeCheckpoint: lets go of snapshots nobody is using (they would keep
    ///   this and other processes' checkpoints from copying newer pages); runs every interval.
    init(
        connection: sending SQLiteConnection,
        intervalMilliseconds: Int,
        rewindFrames: Int,
        busyTimeoutMilliseconds: Int32,
        beforeCheckpoint: @escaping @Sendable () -> Void,
        report: @escaping @Sendable (String) -> Void
    ) {
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        let box = CheckpointConnection(connection)
        worker = PeriodicWorker(intervalMilliseconds: intervalMilliseconds) { [progress] in
            beforeCheckpoint()
            guard progress.hasNewCommits() else { return }
            do {
                let logFrames = try Self.checkpoint(box.connection)
                if logFrames >= rewindFrames { progress.rewindRequested.store(true, ordering: .relaxed) }
            } catch {
                report("background checkpoint failed: \(error)")
            }
        }
    }

    /// Called by the writer after each commit, on its thread and connection: runs the one
    /// checkpoint that lets the log rewind, when the background thread asked for it.
    func afterCommit(on connection: any SQLConnection) {
        progress.commits.add(1, ordering: .relaxed)
        guard progress.rewindRequested.exchange(false, ordering: .relaxed) else { return }
        do {
            try connection.executeScript("PRAGMA busy_timeout = \(Self.rewindWaitMilliseconds)")
            defer { _ = try? connection.executeScript("PRAGMA busy_timeout = \(busyTimeoutMilliseconds)") }
            _ = try connection.queryFirst("PRAGMA wal_checkpoint(RESTART)", [])
        } catch {
            // Busy readers: the next background run asks again.
        }
    }

    /// How long the writer's restarting checkpoint waits for readers inside the log.
    private static let rewindWaitMilliseconds = 5

    /// Stops the thread (SQLite checkpoints the rest when the last connection closes).
    func stop() {
        worker.stop()
    }

    /// A passive checkpoint: never waits. Answers how many frames the log holds.
    private static func checkpoint(_ connection: any SQLConnection) throws(StoreError) -> Int {
        // Columns: busy (1 when it could not run at all), frames in the log, frames copied.
        let row = try connection.queryFirst("PRAGMA wal_checkpoint(PASSIVE)", [])
        return row?.int(1) ?? 0
    }

    private final class Progress: Sendable {
        let rewindRequested = Atomic<Bool>(false)
        /// Commits so far, counted by the writer.
        let commits = Atomic<Int>(0)
        /// The commit count at the last checkpoint (read and written by the worker only).
        private let checkpointedCommits = Atomic<Int>(0)

        func hasNewCommits() -> Bool {
            let now = commits.load(ordering: .relaxed)
            return checkpointedCommits.exchange(now, ordering: .relaxed) != now
        }
    }
}

/// Hands the checkpoint connection to the worker's thread, which then owns it alone.
private final class CheckpointConnection: @unchecked Sendable {
    let connection: SQLiteConnection
    init(_ connection: SQLiteConnection) { self.connection = connection }
}
