import CMicroHTTPD
import Glibc
import HearthBase
import Synchronization

/// What all worker threads share while the server runs: the responder, the limits, the logs,
/// and the counters that graceful shutdown watches. Immutable apart from its atomics.
final class ServerCore: Sendable {
    let responder: any HTTPResponder
    let maxBodyBytes: Int
    /// ``HTTPServer/Configuration/refusalDrainBytes`` and its seconds (as nanoseconds).
    let refusalDrainBytes: Int
    let refusalDrainNanoseconds: UInt64
    /// Reads what clients still send after a refusal, once libmicrohttpd closes the connection.
    let lingeringClose: LingeringClose
    /// The connection limits across daemons and the request head and body deadlines.
    let connectionGuard: ConnectionGuard
    /// Gives freed memory back to the system once the server goes idle.
    let memoryTrimmer: IdleMemoryTrimmer
    let accessLog: AccessLog?
    let log: Log
    /// ``HTTPServer/Configuration/trustedProxies``.
    let trustedProxies: TrustedProxies
    /// Requests begun and not yet completed: body arriving, handler running or answer being sent.
    let inFlight = Atomic<Int>(0)
    /// Set once shutdown begins: answers then carry `Connection: close` so that clients leave
    /// their kept-alive connections.
    let draining = Atomic<Bool>(false)

    /// ``HTTPServer/Configuration/staticResponses`` as raw path bytes, and whether they are on.
    let staticResponses: [(path: [UInt8], response: Response)]
    let staticResponsesEnabled = Atomic<Bool>(false)

    init(responder: any HTTPResponder, configuration: HTTPServer.Configuration) {
        self.staticResponses = configuration.staticResponses.map { (Array($0.key.utf8), $0.value.fixed()) }
        self.responder = responder
        self.maxBodyBytes = configuration.maxBodyBytes
        self.refusalDrainBytes = configuration.refusalDrainBytes
        self.refusalDrainNanoseconds = UInt64(max(0, configuration.refusalDrainSeconds)) * 1_000_000_000
        self.lingeringClose = LingeringClose(
            limitBytes: configuration.refusalDrainBytes,
            limitSeconds: configuration.refusalDrainSeconds,
            capacity: max(1, configuration.connectionLimit)
        )
        let trimmer = IdleMemoryTrimmer(
            idleNanoseconds: UInt64(max(0, configuration.idleMemoryTrimMilliseconds)) * 1_000_000
        )
        self.memoryTrimmer = trimmer
        self.connectionGuard = ConnectionGuard(
            limits: ConnectionGuard.Limits(
                connectionLimit: max(1, configuration.connectionLimit),
                perAddressLimit: max(0, configuration.perIPConnectionLimit),
                headTimeoutNanoseconds: UInt64(max(1, configuration.requestHeadTimeoutMilliseconds)) * 1_000_000,
                bodyMinimumBytesPerSecond: max(0, configuration.bodyMinimumBytesPerSecond)
            ),
            onTick: { now in trimmer.tick(now: now) }
        )
        self.accessLog = configuration.accessLog
        self.log = configuration.log
        self.trustedProxies = configuration.trustedProxies
    }

    /// The 413 answer.
    func tooLargeResponse() -> Response {
        GoogleAPIError(
            code: .contentTooLarge,
            message: "The request body is larger than the limit of \(maxBodyBytes) bytes.",
            status: .resourceExhausted
        ).response()
    }
}

/// One request's state between the calls libmicrohttpd makes for it; it lives in the
/// request's `con_cls` slot from the moment its request line is read (libmicrohttpd's URI log
/// callback) until the completion callback.
final class RequestState: @unchecked Sendable {
    let startNanoseconds: UInt64
    /// The request target's address in libmicrohttpd's buffer and its length up to the first
    /// NUL, as read before libmicrohttpd splits off the query; a shorter target than the
    /// request line holds means a NUL inside it.
    let targetAddress: UInt
    let targetLength: Int
    /// Whether the request target held another control byte.
    let targetHoldsControlByte: Bool
    /// Whether the access handler has seen the headers (its first call has happened).
    var begun = false
    var body = RequestBody(encoding: .identity, limit: 0, expectedLength: nil)
    /// Whether a response was queued (possibly early, before the body).
    var answered = false
    /// For a deferred response: what the access log needs, kept until the answer is sent.
    var method: HTTPMethod = .get
    var path = ""
    var remoteAddress = ""
    /// A deferred response once it has arrived; set from the fulfilling thread, read by the
    /// worker after libmicrohttpd resumes the connection (the resume orders the two).
    let completed = Mutex<Response?>(nil)

    init(startNanoseconds: UInt64, target: UnsafePointer<CChar>) {
        self.startNanoseconds = startNanoseconds
        targetAddress = UInt(bitPattern: target)
        let length = strlen(target)
        targetLength = length
        targetHoldsControlByte = target.withMemoryRebound(to: UInt8.self, capacity: length) {
            RequestFraming.holdsControlByte(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// Whether the target libmicrohttpd hands the access handler, `url` up to the request
    /// line's `version`, is longer than the target read at the request line: then a NUL cut
    /// it short. `version` follows the target in the same buffer, after one separator.
    func targetWasCut(url: UnsafePointer<CChar>, version: UnsafePointer<CChar>) -> Bool {
        let urlAddress = UInt(bitPattern: url)
        let versionAddress = UInt(bitPattern: version)
        // A version outside the request line (libmicrohttpd's static "" for a line without
        // one) says nothing.
        guard urlAddress == targetAddress, versionAddress > urlAddress,
            versionAddress - urlAddress <= 65536
        else { return false }
        return Int(versionAddress - urlAddress) - 1 != targetLength
    }
}

extension ServerCore {
    /// The guard's entry for `connection` (its socket context), `nil` for one it refused.
    static func guardEntry(_ connection: OpaquePointer) -> ConnectionGuard.Entry? {
        guard let info = CMicroHTTPD_connection_info(connection, .CONNECTION_INFO_SOCKET_CONTEXT),
            let context = info.pointee.socket_context
        else { return nil }
        return Unmanaged<ConnectionGuard.Entry>.fromOpaque(context).takeUnretainedValue()
    }

    /// The static response for a `GET`/`HEAD` of exactly `url`, when they are enabled.
    func staticResponse(url: UnsafePointer<CChar>, method: HTTPMethod) -> Response? {
        guard !staticResponses.isEmpty, staticResponsesEnabled.load(ordering: .relaxed),
            method == .get || method == .head
        else { return nil }
        let length = strlen(url)
        for entry in staticResponses where entry.path.count == length {
            let matches = entry.path.withUnsafeBytes { memcmp($0.baseAddress!, url, length) == 0 }
            if matches { return entry.response }
        }
        return nil
    }
}
