import CSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// `SQLITE_TRANSIENT` is a cast macro Swift cannot import: it tells SQLite to copy bound
/// bytes before the call returns.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// SQLite's process-wide settings, made once before the first connection opens (SQLite
/// accepts them only before it initializes).
///
/// Memory statistics off: with them on (SQLite's default), every allocation and free SQLite
/// makes takes one process-wide mutex to keep its totals, and the Debian build has no
/// per-connection lookaside memory, so every small allocation of every connection — the
/// writer's and all the readers' — goes through that lock. Nothing here reads the totals.
private let processConfiguration: Void = {
    _ = csqlite_disable_memory_statistics()  // SQLITE_MISUSE if SQLite already started: harmless
}()

/// One SQLite connection and its prepared statements (`sqlite3_prepare_v3` with
/// `SQLITE_PREPARE_PERSISTENT`, as they live as long as the connection). Not thread-safe: the store
/// hands it to one thread at a time through its pool's lock or the writer's thread, which is
/// what makes the `@unchecked Sendable` sound.
final class SQLiteConnection: SQLConnection, @unchecked Sendable {
    private let handle: OpaquePointer
    /// Prepared statements by `SQLStatement.identity`; `nil` for those this connection has not run.
    private var statements: [OpaquePointer?] = []
    let dialect = SQLDialect.sqlite

    /// Opens (or creates, unless `readOnly`) the database at `path`.
    init(path: String, readOnly: Bool, busyTimeoutMilliseconds: Int32) throws(StoreError) {
        _ = processConfiguration
        if !readOnly { Self.restrictToOwner(path) }
        var db: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw StoreError(.cannotOpen, "cannot open \(path): \(message)")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
    }

    /// Creates the database file (if missing) readable and writable by its owner only, and
    /// narrows an existing one and its log files to that: SQLite gives the `-wal` and `-shm`
    /// files it creates the database file's permissions. They hold every account and message.
    ///
    /// An existing file is never opened here: POSIX locks belong to the process and all of them
    /// on a file go when any descriptor of it is closed, so opening and closing the database
    /// file would drop the shared lock this process's other connections hold on it. Another
    /// process closing its connection would then find itself the last user of the database,
    /// checkpoint, and delete the log and its index under this one: later commits would go to
    /// an unlinked log, and reads would compare a header nobody writes any more.
    private static func restrictToOwner(_ path: String) {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return }
        let created = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if created >= 0 { close(created) }  // new: no connection holds a lock on it yet
        for suffix in ["", "-wal", "-shm", "-journal"] { chmod(path + suffix, 0o600) }
    }

    deinit {
        for case let statement? in statements { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
        logFrames?.deallocate()
    }

    // MARK: - Checkpoints

    /// Where the log-commit hook keeps the frame count of the write-ahead log after this
    /// connection's latest commit; `nil` until `checkpointsOnRequest` is called.
    private var logFrames: UnsafeMutablePointer<Int32>?

    /// Turns SQLite's automatic checkpoint off for this connection and records, instead, the
    /// log's length after each of its commits, for `checkpointIfLogReaches` to act on.
    ///
    /// SQLite's own checkpoint runs *inside* the commit that takes the log past its limit
    /// (a commit hook), so the commit's callers wait for the copy and its two syncs before the
    /// commit even counts as made. Run after the commit instead, the checkpoint overlaps
    /// with whatever comes next for that commit (its sync, its answers). The hook is the same
    /// one SQLite's automatic checkpoint uses, so setting it replaces that.
    func checkpointsOnRequest() {
        let frames = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        frames.initialize(to: 0)
        logFrames = frames
        sqlite3_wal_hook(
            handle,
            { context, _, _, frameCount in
                context?.assumingMemoryBound(to: Int32.self).pointee = frameCount
                return SQLITE_OK
            },
            frames
        )
    }

    /// Runs a passive checkpoint (what SQLite's automatic one is) when this connection's
    /// latest commit left the log at `frames` frames or more. Between transactions only.
    func checkpointIfLogReaches(_ frames: Int32) throws(StoreError) {
        guard let logFrames, logFrames.pointee >= frames else { return }
        let status = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        // Busy: another connection is checkpointing; this one tries again after its next commit.
        if status != SQLITE_OK && status & 0xFF != SQLITE_BUSY { throw error(status, sql: "checkpoint") }
    }

    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    @discardableResult
    func execute(_ statement: SQLStatement, _ parameters: [SQLValue]) throws(StoreError) -> Int {
        let prepared = try prepare(statement)
        defer { release(prepared, of: statement) }
        try bind(parameters, to: prepared, sql: statement.sqlite)
        while true {
            let status = sqlite3_step(prepared)
            if status == SQLITE_DONE { break }
            if status != SQLITE_ROW { throw error(status, sql: statement.sqlite) }
        }
        return Int(sqlite3_changes(handle))
    }

    func query(_ statement: SQLStatement, _ parameters: [SQLValue]) throws(StoreError) -> [SQLRow] {
        let prepared = try prepare(statement)
        defer { release(prepared, of: statement) }
        try bind(parameters, to: prepared, sql: statement.sqlite)
        var rows: [SQLRow] = []
        let columnCount = sqlite3_column_count(prepared)
        while true {
            let status = sqlite3_step(prepared)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw error(status, sql: statement.sqlite) }
            var values: [SQLValue] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                values.append(value(of: prepared, column: column))
            }
            rows.append(SQLRow(values: values))
        }
        return rows
    }

    /// The first region of the database's write-ahead-log index, as SQLite itself maps it for
    /// this connection (the VFS's `xShmMap`, never extending the file); `nil` without one.
    /// Valid while a connection of this process to the database is open. Call it before the
    /// connection is handed to another thread.
    func mappedLogIndex() -> UnsafeRawPointer? {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
            let file, let methods = file.pointee.pMethods, methods.pointee.iVersion >= 2,
            let map = methods.pointee.xShmMap
        else { return nil }
        var region: UnsafeMutableRawPointer?
        // 32 KiB: the size of SQLite's index regions (it maps them no other way).
        guard map(file, 0, 32_768, 0, &region) == SQLITE_OK, let region else { return nil }
        return UnsafeRawPointer(region)
    }

    func executeScript(_ sql: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        if status != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_free(message)
            throw StoreError(Self.kind(of: status), text)
        }
    }

    // MARK: - Statements

    /// The statement prepared on this connection: kept from an earlier run, or prepared now
    /// (and kept, unless it is a one-off).
    private func prepare(_ statement: SQLStatement) throws(StoreError) -> OpaquePointer {
        guard let identity = statement.identity else { return try prepare(statement.sqlite, flags: 0) }
        if identity < statements.count, let prepared = statements[identity] { return prepared }
        let prepared = try prepare(statement.sqlite, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
        if identity >= statements.count {
            statements.append(contentsOf: repeatElement(nil, count: identity + 1 - statements.count))
        }
        statements[identity] = prepared
        return prepared
    }

    private func prepare(_ sql: String, flags: UInt32) throws(StoreError) -> OpaquePointer {
        var prepared: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, flags, &prepared, nil)
        guard status == SQLITE_OK, let prepared else { throw error(status, sql: sql) }
        return prepared
    }

    /// Readies a kept statement for its next run, or frees a one-off.
    private func release(_ prepared: OpaquePointer, of statement: SQLStatement) {
        if statement.identity == nil {
            sqlite3_finalize(prepared)
        } else {
            sqlite3_reset(prepared)
        }
    }

    private func bind(_ parameters: [SQLValue], to statement: OpaquePointer, sql: String) throws(StoreError) {
        // Every parameter is bound again below; only one left out would keep a stale value.
        if parameters.count < Int(sqlite3_bind_parameter_count(statement)) { sqlite3_clear_bindings(statement) }
        for (offset, parameter) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch parameter {
            case .null:
                status = sqlite3_bind_null(statement, index)
            case .integer(let value):
                status = sqlite3_bind_int64(statement, index, value)
            case .real(let value):
                status = sqlite3_bind_double(statement, index, value)
            case .text(var value):
                status = value.withUTF8 { utf8 in
                    sqlite3_bind_text(statement, index, utf8.baseAddress, Int32(utf8.count), transientDestructor)
                }
            case .blob(let bytes):
                status = bytes.withUnsafeBytes { buffer in
                    // A zero-length blob needs a non-null pointer, or SQLite stores NULL.
                    sqlite3_bind_blob(
                        statement,
                        index,
                        buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                        Int32(buffer.count),
                        transientDestructor
                    )
                }
            }
            if status != SQLITE_OK { throw error(status, sql: sql) }
        }
    }

    private func value(of statement: OpaquePointer, column: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(statement, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            return .null
        }
    }

    // MARK: - Errors

    private func error(_ status: Int32, sql: String) -> StoreError {
        let message = String(cString: sqlite3_errmsg(handle))
        return StoreError(Self.kind(of: status), "\(message) [\(sql.prefix(120))]")
    }

    // Extended result codes are expression macros Swift cannot import (sqlite3.h values).
    private static let constraintPrimaryKey = SQLITE_CONSTRAINT | (6 << 8)
    private static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)

    private static func kind(of status: Int32) -> StoreError.Kind {
        switch status {
        case constraintUnique, constraintPrimaryKey: .uniqueViolation
        case _ where status & 0xFF == SQLITE_CONSTRAINT: .constraintViolation
        case _ where status & 0xFF == SQLITE_BUSY, _ where status & 0xFF == SQLITE_LOCKED: .busy
        case _ where status & 0xFF == SQLITE_CANTOPEN: .cannotOpen
        case _ where status & 0xFF == SQLITE_IOERR, SQLITE_FULL: .io
        case _ where status & 0xFF == SQLITE_READONLY: .io
        default: .other
        }
    }
}
