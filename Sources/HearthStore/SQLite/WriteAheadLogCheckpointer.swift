import HearthBase
import Synchronization

/// Copies committed pages from the write-ahead log back into the database file on its own
/// thread and connection, so the writer never stalls on a checkpoint's page writes and syncs.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its threshold, on the
/// writer's thread: the whole commit pipeline waits for thousands of page writes and two
/// fsyncs. Here the writer's connection has automatic checkpoints off; this thread runs a
/// passive checkpoint (never blocks the writer or readers) every `intervalMilliseconds`
/// after new commits.
///
/// A passive checkpoint under steady load rarely catches the log's very end, and SQLite
/// rewinds the log only when a write starts with every frame copied, so the log would grow
/// for as long as the load lasts. When it passes `rewindFrames`, the writer is asked
/// (`writerShouldCheckpoint`) to run one checkpoint itself right after its next commit: the
/// background runs have already copied nearly everything, so that one is short, and the
/// following write rewinds the log.
final class WriteAheadLogCheckpointer: Sendable {
    private let progress = Progress()
    private let worker: PeriodicWorker

    /// Starts the thread. `connection` is used by that thread only from now on.
    /// - Parameter beforeCheckpoint: lets go of snapshots nobody is using (they would keep
    ///   the checkpoint from copying newer pages).
    init(
        connection: sending SQLiteConnection,
        intervalMilliseconds: Int,
        rewindFrames: Int,
        beforeCheckpoint: @escaping @Sendable () -> Void,
        report: @escaping @Sendable (String) -> Void
    ) {
        let box = CheckpointConnection(connection)
        worker = PeriodicWorker(intervalMilliseconds: intervalMilliseconds) { [progress] in
            guard progress.hasNewCommits() else { return }
            beforeCheckpoint()
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
        _ = try? Self.checkpoint(connection)
    }

    /// Stops the thread (SQLite checkpoints the rest when the last connection closes).
    func stop() {
        worker.stop()
    }

    /// A passive checkpoint; answers how many frames the log holds.
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
