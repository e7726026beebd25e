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
    let accessLog: AccessLog?
    let log: Log
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
        self.accessLog = configuration.accessLog
        self.log = configuration.log
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
/// request's `con_cls` slot from the first call until the completion callback.
final class RequestState: @unchecked Sendable {
    let startNanoseconds: UInt64
    var body: RequestBody
    /// Whether a response was queued (possibly early, before the body).
    var answered = false
    /// For a deferred response: what the access log needs, kept until the answer is sent.
    var method: HTTPMethod = .get
    var path = ""
    var remoteAddress = ""
    /// A deferred response once it has arrived; set from the fulfilling thread, read by the
    /// worker after libmicrohttpd resumes the connection (the resume orders the two).
    let completed = Mutex<Response?>(nil)

    init(startNanoseconds: UInt64, body: RequestBody) {
        self.startNanoseconds = startNanoseconds
        self.body = body
    }
}

extension ServerCore {
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
