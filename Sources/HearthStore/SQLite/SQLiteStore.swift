import HearthBase
import Synchronization

/// The embedded store: one SQLite database file in WAL mode with `synchronous=FULL`, so an
/// acknowledged write survives a power loss. Writes go through one group-committing writer;
/// reads use a pool of read-only connections and run in parallel with it. A `StoreWrite`'s
/// plan reads on the writer's connection instead: a reader's page cache is dropped whenever
/// its next snapshot follows a commit, so under writes a read of its own before the write
/// would start cold and cost more than the write's other work, while the writer's cache
/// stays warm and its reads hold until the commit. The files are the
/// owner's alone (0600), and deleted content is zeroed where that costs no extra write
/// (`secure_delete = FAST`), so values purged from a row do not linger in its page.
public final class SQLiteStore: Store {
    public struct Configuration: Sendable {
        public var path: String
        public var busyTimeoutMilliseconds: Int32 = 5000
        public var maximumBatch = 512
        /// Idle read connections kept open for reuse.
        public var pooledReaders = 8
        /// Page cache of the writer and of each reader, in KiB: enough for the hot index pages.
        /// (Much larger makes SQLite's cache housekeeping after each commit cost more than the
        /// reads it saves.)
        public var writerCacheKiB = 8_192
        public var readerCacheKiB = 8_192
        /// The writer reads through a memory map of this many bytes of the database file: no
        /// system call per page read. Readers do not: a reader whose next snapshot follows a
        /// commit drops and remaps the whole map (then faults its pages in again), which under
        /// writes costs more than it saves (measured: sendOobCode and token generation both
        /// faster without, the 1 M-installation lookups as fast).
        public var mmapBytes = 256 << 20
        /// Commit groups without a sync inside SQLite and make them durable from a second
        /// thread (one fsync of the write-ahead log for every group committed meanwhile),
        /// so the writer runs the next group while the disk works. Acknowledgements still
        /// wait for the sync: an acknowledged write survives power loss either way.
        public var pipelinedSync = true
        /// Background checkpoints run this often while commits keep coming.
        public var checkpointIntervalMilliseconds = 100

        public init(path: String) { self.path = path }
    }

    private let configuration: Configuration
    private let writer: GroupCommitWriter
    private let checkpointer: WriteAheadLogCheckpointer
    private let readers: ReaderPool
    private static let quietMillisecondsBeforeKeepingSnapshots: UInt64 = 50
    /// After a burst the log file is cut back to this size when it starts over.
    private static let logSizeLimitBytes = 64 << 20
    /// The log length at which the writer checkpoints after a commit (SQLite's default).
    /// Larger checkpoints less often and costs more each time: with 8000, installation create
    /// (1 M stored, random pages) went from 0.41 to 0.47 of token generation but its p99 from
    /// 47 to 111 ms (each of the writer's checkpoints synced ~1 s of scattered pages, 100-160
    /// ms); with 4000 the p99 was 72 ms; sendOobCode's gain was within the noise.
    private static let checkpointFrames: Int32 = 1000
    private let logIndex: WriteAheadLogIndex
    private let isClosed = Atomic<Bool>(false)
    /// The schema steps opening this store applied, in order (none when it was up to date).
    public let appliedMigrations: [Migration]

    /// Opens (creating if needed) the database and brings its schema up to date.
    public init(
        _ configuration: Configuration,
        migrations: [Migration] = Schema.migrations,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(StoreError) {
        self.configuration = configuration
        let readers = ReaderPool(capacity: configuration.pooledReaders)
        self.readers = readers
        let connection = try SQLiteConnection(
            path: configuration.path,
            readOnly: false,
            busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds
        )
        try connection.executeScript(
            """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = FULL;
            PRAGMA foreign_keys = ON;
            PRAGMA temp_store = MEMORY;
            PRAGMA cache_size = -\(configuration.writerCacheKiB);
            PRAGMA mmap_size = \(configuration.mmapBytes);
            PRAGMA journal_size_limit = \(Self.logSizeLimitBytes);
            PRAGMA secure_delete = FAST;
            """
        )
        appliedMigrations = try Migration.apply(migrations, on: connection)
        logIndex = WriteAheadLogIndex(region: connection.mappedLogIndex())
        var sync: (@Sendable () throws -> Void)?
        if configuration.pipelinedSync {
            // WAL with synchronous=NORMAL syncs around checkpoints only; the syncer thread
            // fsyncs the log after each commit group, before anyone is told it happened.
            try connection.executeScript("PRAGMA synchronous = NORMAL;")
            let log = WriteAheadLogFile(path: configuration.path + "-wal")
            sync = { try log.sync() }
        }
        // The writer still checkpoints by itself when the log reaches SQLite's usual 1000
        // frames (between two of its transactions, so it can copy the log's very end and the
        // next write starts the log over), but after handing the commit on, not inside it.
        connection.checkpointsOnRequest()
        let writer = GroupCommitWriter(
            connection: connection,
            maximumBatch: configuration.maximumBatch,
            syncAfterCommit: sync,
            afterCommit: { connection in
                try (connection as? SQLiteConnection)?.checkpointIfLogReaches(Self.checkpointFrames)
            },
            report: report
        )
        self.writer = writer
        checkpointer = WriteAheadLogCheckpointer(
            connection: try SQLiteConnection(
                path: configuration.path,
                readOnly: false,
                busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds
            ),
            intervalMilliseconds: configuration.checkpointIntervalMilliseconds,
            commits: { writer.statistics.commits },
            beforeCheckpoint: { readers.endIdleSnapshots() },
            report: report
        )
    }

    public func read<Result>(_ body: (ReadTransaction) throws -> Result) throws -> Result {
        if isClosed.load(ordering: .relaxed) { throw StoreError(.closed, "the store is closed") }
        let reader = try readers.borrow() ?? openReader()
        defer { readers.giveBack(reader) }
        // Open snapshots keep checkpoints from copying newer pages and the log from
        // rewinding, so they outlive a read only while nothing is being written.
        let keep = writer.hasBeenQuiet(forMilliseconds: Self.quietMillisecondsBeforeKeepingSnapshots)
        return try reader.read(index: logIndex, keepingSnapshot: keep, body)
    }

    @discardableResult
    public func write<Result: Sendable>(
        _ body: @escaping @Sendable (WriteTransaction) throws -> Result
    ) throws -> Result {
        try writer.write(body)
    }

    public func write<Value: Sendable>(
        _ body: @escaping @Sendable (WriteTransaction) throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        writer.write(body, completion: completion)
    }

    @discardableResult
    public func write<Plan, Value, Answer>(_ write: StoreWrite<Plan, Value, Answer>) throws -> Answer {
        try writer.write(write)
    }

    public func write<Plan, Value, Answer>(
        _ write: StoreWrite<Plan, Value, Answer>,
        completion: @escaping @Sendable (Result<Answer, any Error>) -> Void
    ) {
        writer.write(write, completion: completion)
    }

    public func enqueueWrite(_ body: @escaping @Sendable (WriteTransaction) throws -> Void) {
        writer.enqueue(body)
    }

    /// SQLite has no way to hear another process's commits: never called.
    public func watch(_ topic: StoreTopic, _ changed: @escaping @Sendable () -> Void) {}

    public func watchHealth(_ changed: @escaping @Sendable () -> Void) {}

    public var health: StoreHealth { .answering }

    public var statistics: StoreStatistics { writer.statistics }

    public func close() {
        guard !isClosed.exchange(true, ordering: .relaxed) else { return }
        writer.close()
        checkpointer.stop()
        readers.removeAll()
    }

    private func openReader() throws(StoreError) -> SnapshotReader {
        let connection = try SQLiteConnection(
            path: configuration.path,
            readOnly: true,
            busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds
        )
        try connection.executeScript(
            "PRAGMA cache_size = -\(configuration.readerCacheKiB); PRAGMA mmap_size = 0;"
        )
        return SnapshotReader(connection: connection)
    }
}
