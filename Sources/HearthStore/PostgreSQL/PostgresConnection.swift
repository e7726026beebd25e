import CLibPQ
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One libpq connection and its prepared statements. Not thread-safe: the store hands it to
/// one thread at a time (its pool's lock, or a writer's thread), which is what makes the
/// `@unchecked Sendable` sound.
///
/// A statement is prepared the first time the connection runs it, named after its identity
/// (`s12`), and from then on run with `PQexecPrepared`; a one-off runs with `PQexecParams`,
/// as the session's unnamed statement, which the next one replaces. Parameters go in text
/// form, blobs in binary; results come in text form, decoded by column type.
///
/// A statement waits for its answer at most `answerTimeoutMilliseconds` (longer than the
/// server's statement timeout, so a statement the server cancels reports the server's error):
/// a server that stopped answering — paused, or cut off without a reset, which TCP alone
/// notices only after many minutes — holds no thread longer. Past it the socket is shut down,
/// so the connection reads as broken.
///
/// A connection found broken is reopened when it is next used, but never inside a
/// transaction: a transaction whose connection was lost fails every statement until its
/// `ROLLBACK` (which then just ends it, the server having rolled it back already), so nothing
/// runs half in one session and half in another.
final class PostgresConnection: SQLConnection, @unchecked Sendable {
    let dialect = SQLDialect.postgres
    private let handle: OpaquePointer
    private let availability: PostgresServerAvailability
    private let answerTimeoutNanoseconds: UInt64
    /// The server's names of the statements this session prepared, by `SQLStatement.identity`
    /// (`nil` for those not prepared yet); forgotten when the connection is reopened, as the
    /// new session has none.
    private var preparedNames: [String?] = []
    /// The session holding the open transaction died; cleared by the transaction's `ROLLBACK`.
    private var transactionLost = false

    /// Connects with `parameters` (libpq's key words and values, processed in order, so a
    /// later one overrides an earlier one).
    init(
        parameters: [(String, String)],
        availability: PostgresServerAvailability,
        answerTimeoutMilliseconds: Int
    ) throws(StoreError) {
        self.availability = availability
        answerTimeoutNanoseconds = UInt64(max(1, answerTimeoutMilliseconds)) * 1_000_000
        try availability.checkReachable()
        let connection = Self.connect(parameters)
        guard let connection else { throw StoreError(.unavailable, "cannot connect: out of memory") }
        handle = connection
        // libpq prints the server's notices (`relation already exists, skipping`) to stderr.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        guard PQstatus(handle) == CONNECTION_OK else {
            let error = StoreError(.unavailable, "cannot connect: \(Self.text(PQerrorMessage(handle)))")
            availability.noteUnreachable()
            throw error
        }
        availability.noteReachable()
    }

    deinit {
        PQfinish(handle)
    }

    private static func connect(_ parameters: [(String, String)]) -> OpaquePointer? {
        // Two NULL-terminated arrays of C strings; expand_dbname 1 reads a URL in `dbname`.
        let keywords: [UnsafePointer<CChar>?] = parameters.map { UnsafePointer(strdup($0.0)) } + [nil]
        let values: [UnsafePointer<CChar>?] = parameters.map { UnsafePointer(strdup($0.1)) } + [nil]
        defer {
            for pointer in keywords + values { free(UnsafeMutablePointer(mutating: pointer)) }
        }
        return PQconnectdbParams(keywords, values, 1)
    }

    var isInTransaction: Bool {
        if transactionLost { return true }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Waits up to `timeoutMilliseconds` for notifications on the channels this session
    /// listens on (`LISTEN`) and answers the channels they came on; throws once the connection
    /// broke.
    func awaitNotifications(timeoutMilliseconds: Int32) throws(StoreError) -> Set<String> {
        if isBroken { throw StoreError(.unavailable, "the listening connection is broken") }
        let waiting = takeNotifications()
        guard waiting.isEmpty else { return waiting }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, timeoutMilliseconds) > 0 else { return [] }
        guard PQconsumeInput(handle) == 1, !isBroken else {
            throw StoreError(.unavailable, "lost the listening connection: \(Self.text(PQerrorMessage(handle)))")
        }
        return takeNotifications()
    }

    private func takeNotifications() -> Set<String> {
        var channels: Set<String> = []
        while let notification = PQnotifies(handle) {
            channels.insert(Self.text(notification.pointee.relname))
            PQfreemem(notification)
        }
        return channels
    }

    /// Whether the last use found the connection broken.
    var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

    @discardableResult
    func execute(_ statement: SQLStatement, _ parameters: [SQLValue]) throws(StoreError) -> Int {
        if transactionLost, statement === SQLStatement.rollback {
            // The server ended the transaction when the session died; there is nothing to undo.
            transactionLost = false
            return 0
        }
        let result = try run(statement, parameters)
        defer { PQclear(result) }
        // The server answers `COMMIT` of a transaction that an error aborted by rolling it
        // back, with no error: the writes it held must not be acknowledged.
        if statement === SQLStatement.commit, Self.text(PQcmdStatus(result)) == "ROLLBACK" {
            throw StoreError(.other, "the transaction was rolled back: one of its statements had failed")
        }
        return Int(Self.text(PQcmdTuples(result))) ?? 0
    }

    func query(_ statement: SQLStatement, _ parameters: [SQLValue]) throws(StoreError) -> [SQLRow] {
        let result = try run(statement, parameters)
        defer { PQclear(result) }
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        let types = (0..<columnCount).map { PQftype(result, $0) }
        var rows: [SQLRow] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [SQLValue] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if PQgetisnull(result, row, column) != 0 {
                    values.append(.null)
                    continue
                }
                let bytes = UnsafeRawBufferPointer(
                    start: PQgetvalue(result, row, column),
                    count: Int(PQgetlength(result, row, column))
                )
                values.append(Self.value(bytes, type: types[Int(column)]))
            }
            rows.append(SQLRow(values: values))
        }
        return rows
    }

    func executeScript(_ sql: String) throws(StoreError) {
        try ensureUsable(sql)
        let wasInTransaction = isInTransaction
        let result = try awaitResult(sent: PQsendQuery(handle, sql), sql: sql, wasInTransaction: wasInTransaction)
        defer { PQclear(result) }
        try check(result, sql: sql, wasInTransaction: wasInTransaction)
    }

    // MARK: - Running statements

    /// Runs the statement (prepared first, unless it is a one-off); the caller clears the result.
    private func run(_ statement: SQLStatement, _ parameters: [SQLValue]) throws(StoreError) -> OpaquePointer {
        do {
            return try runOnce(statement, parameters)
        } catch {
            // A transaction not begun yet loses nothing by starting on a new session: a
            // connection the server dropped while it was idle (a restart) costs no failure.
            guard error.kind == .unavailable, statement.postgres.hasPrefix("BEGIN"), !transactionLost, isBroken
            else { throw error }
            return try runOnce(statement, parameters)
        }
    }

    private func runOnce(_ statement: SQLStatement, _ parameters: [SQLValue]) throws(StoreError) -> OpaquePointer {
        let sql = statement.postgres
        try ensureUsable(sql)
        let wasInTransaction = isInTransaction
        let bound = BoundParameters(parameters)
        let count = Int32(parameters.count)
        let sent: Int32
        if let identity = statement.identity {
            let name = try preparedName(of: sql, identity: identity, wasInTransaction: wasInTransaction)
            sent = bound.withPointers { values, lengths, formats in
                PQsendQueryPrepared(handle, name, count, values, lengths, formats, 0)
            }
        } else {
            sent = bound.withPointers { values, lengths, formats in
                PQsendQueryParams(handle, sql, count, nil, values, lengths, formats, 0)
            }
        }
        let result = try awaitResult(sent: sent, sql: sql, wasInTransaction: wasInTransaction)
        do {
            try check(result, sql: sql, wasInTransaction: wasInTransaction)
        } catch {
            PQclear(result)
            throw error
        }
        return result
    }

    /// The name of the statement `identity` in this session, preparing it if it has not been.
    private func preparedName(of sql: String, identity: Int, wasInTransaction: Bool) throws(StoreError) -> String {
        if identity < preparedNames.count, let name = preparedNames[identity] { return name }
        let name = "s\(identity)"
        let result = try awaitResult(
            sent: PQsendPrepare(handle, name, sql, 0, nil),
            sql: sql,
            wasInTransaction: wasInTransaction
        )
        defer { PQclear(result) }
        try check(result, sql: sql, wasInTransaction: wasInTransaction)
        if identity >= preparedNames.count {
            preparedNames.append(contentsOf: repeatElement(nil, count: identity + 1 - preparedNames.count))
        }
        preparedNames[identity] = name
        return name
    }

    /// The result of the command just sent (`sent` is what the `PQsend…` call returned), read
    /// as it arrives for up to the answer timeout; the caller checks and clears it.
    private func awaitResult(sent: Int32, sql: String, wasInTransaction: Bool) throws(StoreError) -> OpaquePointer {
        guard sent == 1 else { throw connectionFailure(sql, wasInTransaction) }
        let deadline = DispatchTime.now().uptimeNanoseconds + answerTimeoutNanoseconds
        var last: OpaquePointer?
        while true {
            while PQisBusy(handle) == 0 {
                guard let result = PQgetResult(handle) else {
                    guard let last else { throw connectionFailure(sql, wasInTransaction) }
                    availability.noteAnswer()
                    return last
                }
                if let last { PQclear(last) }
                last = result
            }
            let now = DispatchTime.now().uptimeNanoseconds
            var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            let ready = now < deadline ? poll(&descriptor, 1, Int32((deadline - now) / 1_000_000) + 1) : 0
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0, PQconsumeInput(handle) == 1 else {
                if let last { PQclear(last) }
                throw ready == 0 ? abandon(sql, wasInTransaction) : connectionFailure(sql, wasInTransaction)
            }
        }
    }

    /// Gives up on a server that did not answer in time: the socket is shut down, so libpq
    /// marks the connection broken and the next use reopens it.
    private func abandon(_ sql: String, _ wasInTransaction: Bool) -> StoreError {
        shutdown(PQsocket(handle), Int32(SHUT_RDWR))
        _ = PQconsumeInput(handle)
        transactionLost = wasInTransaction
        let seconds = Double(answerTimeoutNanoseconds / 1_000_000) / 1_000
        return StoreError(.unavailable, "the database server did not answer within \(seconds) s [\(sql.prefix(120))]")
    }

    /// Reopens a broken connection, between transactions only (see the type's comment).
    private func ensureUsable(_ sql: String) throws(StoreError) {
        guard isBroken else { return }
        if transactionLost {
            throw StoreError(.unavailable, "the connection to the database was lost in this transaction")
        }
        try availability.checkReachable()
        PQreset(handle)
        preparedNames.removeAll()
        guard PQstatus(handle) == CONNECTION_OK else {
            availability.noteUnreachable()
            throw StoreError(.unavailable, "cannot reconnect: \(Self.text(PQerrorMessage(handle)))")
        }
        availability.noteReachable()
    }

    private func connectionFailure(_ sql: String, _ wasInTransaction: Bool) -> StoreError {
        if isBroken { transactionLost = wasInTransaction }
        return StoreError(.unavailable, "\(Self.text(PQerrorMessage(handle))) [\(sql.prefix(120))]")
    }

    private func check(_ result: OpaquePointer, sql: String, wasInTransaction: Bool) throws(StoreError) {
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY { return }
        if isBroken {
            throw connectionFailure(sql, wasInTransaction)
        }
        let state = PQresultErrorField(result, Self.sqlStateField).map { String(cString: $0) } ?? ""
        // The primary message alone: the detail line quotes the refused values (addresses).
        let message =
            PQresultErrorField(result, Self.primaryMessageField).map { String(cString: $0) }
            ?? Self.text(PQresultErrorMessage(result))
        throw StoreError(Self.kind(ofState: state), "\(message) (SQLSTATE \(state)) [\(sql.prefix(120))]")
    }

    // `PG_DIAG_SQLSTATE` and `PG_DIAG_MESSAGE_PRIMARY` are character-constant macros.
    private static let sqlStateField = Int32(UInt8(ascii: "C"))
    private static let primaryMessageField = Int32(UInt8(ascii: "M"))

    /// The kind of a server error by its SQLSTATE, so the areas see what SQLite reports.
    static func kind(ofState state: String) -> StoreError.Kind {
        switch state {
        case "23505": .uniqueViolation
        case "40P01", "40001": .conflict
        // Lock timeout: waited too long for a lock, as SQLite's busy timeout.
        case "55P03": .busy
        // Canceled by the statement timeout; admin, crash and start-up shutdowns.
        case "57014", "57P01", "57P02", "57P03": .unavailable
        case "53100": .io
        default:
            switch state.prefix(2) {
            case "23": .constraintViolation
            case "08", "53", "58": .unavailable
            default: .other
            }
        }
    }

    // MARK: - Values

    // Type OIDs from `pg_type` (catalog/pg_type_d.h, stable across releases).
    private static let boolType: Oid = 16
    private static let byteaType: Oid = 17
    private static let integerTypes: Set<Oid> = [20, 21, 23, 26]  // int8, int2, int4, oid
    private static let floatTypes: Set<Oid> = [700, 701]  // float4, float8
    private static let numericType: Oid = 1700

    private static func value(_ bytes: UnsafeRawBufferPointer, type: Oid) -> SQLValue {
        let text = String(decoding: bytes, as: UTF8.self)
        switch type {
        case _ where integerTypes.contains(type):
            return .integer(Int64(text) ?? 0)
        case boolType:
            return .integer(text == "t" ? 1 : 0)
        case _ where floatTypes.contains(type):
            return .real(Double(text) ?? 0)
        case numericType:
            // SUM of a BIGINT column is NUMERIC.
            if let integer = Int64(text) { return .integer(integer) }
            return .real(Double(text) ?? 0)
        case byteaType:
            return .blob(decodeHex(bytes))
        default:
            return .text(text)
        }
    }

    /// A `bytea` column in text form: `\x` and two hex digits per byte.
    private static func decodeHex(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        guard bytes.count >= 2 else { return [] }
        func nibble(_ digit: UInt8) -> UInt8 {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: 0
            }
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity((bytes.count - 2) / 2)
        var index = 2
        while index + 1 < bytes.count {
            decoded.append(nibble(bytes[index]) << 4 | nibble(bytes[index + 1]))
            index += 2
        }
        return decoded
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        var text = String(cString: pointer)
        while text.last == "\n" { text.removeLast() }
        return text
    }
}

/// The parameters of one statement as libpq takes them: one buffer holding every value (text
/// ends with NUL; blobs are binary, by length), and per parameter a pointer, a length and a
/// format (0 text, 1 binary).
private struct BoundParameters {
    private var storage: [UInt8] = []
    /// Offset of each value in `storage`, or `nil` for SQL NULL.
    private var offsets: [Int?] = []
    private var lengths: [Int32] = []
    private var formats: [Int32] = []

    init(_ parameters: [SQLValue]) {
        offsets.reserveCapacity(parameters.count)
        for parameter in parameters {
            switch parameter {
            case .null:
                append(nil, format: 0)
            case .integer(let value):
                append(Array(String(value).utf8), format: 0)
            case .real(let value):
                append(Array("\(value)".utf8), format: 0)
            case .text(let value):
                append(Array(value.utf8), format: 0)
            case .blob(let bytes):
                append(bytes, format: 1)
            }
        }
    }

    private mutating func append(_ bytes: [UInt8]?, format: Int32) {
        formats.append(format)
        guard let bytes else {
            offsets.append(nil)
            lengths.append(0)
            return
        }
        offsets.append(storage.count)
        lengths.append(Int32(bytes.count))
        storage += bytes
        storage.append(0)  // text ends at NUL; a blob's NUL past its length is never read
    }

    func withPointers<Result>(
        _ body: (
            UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?
        ) -> Result
    ) -> Result {
        storage.withUnsafeBytes { buffer in
            let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in
                guard let offset, let base else { return nil }
                return UnsafePointer(base + offset)
            }
            return pointers.withUnsafeBufferPointer { pointers in
                lengths.withUnsafeBufferPointer { lengths in
                    formats.withUnsafeBufferPointer { formats in
                        body(pointers.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }
}

/// What the store's connections know about the server between them: when one found it
/// unreachable, the others fail at once for a moment instead of each waiting for its own
/// connection attempt (up to `connect_timeout`), and one attempt a moment tells whether it is
/// back. And whether the store's probe last found it answering: while not, operations fail
/// at once (`checkAnswering`).
final class PostgresServerAvailability: Sendable {
    /// `DispatchTime` uptime before which nobody tries to connect (0: reachable).
    private let retryAfter = Atomic<UInt64>(0)
    private let retryIntervalNanoseconds: UInt64
    private let answering = Atomic<Bool>(true)
    /// `DispatchTime` uptime of the latest answer any connection received.
    private let lastAnswer = Atomic<UInt64>(0)
    private let observers = Mutex<[@Sendable () -> Void]>([])

    init(retryIntervalMilliseconds: UInt64) {
        retryIntervalNanoseconds = retryIntervalMilliseconds * 1_000_000
    }

    func checkReachable() throws(StoreError) {
        let after = retryAfter.load(ordering: .relaxed)
        guard after != 0, DispatchTime.now().uptimeNanoseconds < after else { return }
        throw StoreError(.unavailable, "the database server is unreachable (trying again shortly)")
    }

    func noteUnreachable() {
        retryAfter.store(DispatchTime.now().uptimeNanoseconds + retryIntervalNanoseconds, ordering: .relaxed)
    }

    func noteReachable() {
        retryAfter.store(0, ordering: .relaxed)
    }

    func checkAnswering() throws(StoreError) {
        guard answering.load(ordering: .relaxed) else {
            throw StoreError(.unavailable, "the database server is not answering")
        }
    }

    var health: StoreHealth { answering.load(ordering: .relaxed) ? .answering : .notAnswering }

    func noteAnswer() {
        lastAnswer.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
    }

    /// Whether some connection received an answer at or after `uptime`.
    func answered(since uptime: UInt64) -> Bool {
        lastAnswer.load(ordering: .relaxed) >= uptime
    }

    /// Records the probe's finding; answers whether it changed the health.
    func noteProbe(answered: Bool) -> Bool {
        guard answering.exchange(answered, ordering: .relaxed) != answered else { return false }
        for observer in observers.withLock({ $0 }) { observer() }
        return true
    }

    func observe(_ changed: @escaping @Sendable () -> Void) {
        observers.withLock { $0.append(changed) }
    }
}
