import Glibc
import HearthBase
import Synchronization

/// The limits on connections that libmicrohttpd cannot hold across the server's daemons, and
/// the deadlines its idle timeout does not give.
///
/// * **Connection limits.** Every daemon admits connections up to the server's whole limit;
///   this guard counts them all, and per client address, and answers one past either limit
///   with a 503 and closes it at once. (libmicrohttpd's own limits are per daemon, and past
///   them it leaves connections in the listen backlog, where the client hears nothing.)
/// * **Request head deadline.** libmicrohttpd's idle timeout restarts with every byte, so a
///   client sending one header byte every few seconds holds its connection forever. Here the
///   request line and headers must be complete within ``Limits/headTimeoutNanoseconds`` of the
///   moment the connection is ready for a request (accepted, or its previous answer sent); a
///   new connection past it gets 408 and is closed, a kept-alive one is just closed.
/// * **Body minimum rate.** After a grace of the head timeout, a body must arrive at
///   ``Limits/bodyMinimumBytesPerSecond`` on average; a slower one is cut off.
///
/// One thread checks the deadlines a few times per second. It ends a connection by shutting its
/// socket down, which libmicrohttpd then sees and closes; both happen under the registry's lock,
/// which the close notification also takes, so the descriptor cannot be reused meanwhile.
final class ConnectionGuard: Sendable {
    struct Limits: Sendable {
        /// Open connections across every daemon.
        var connectionLimit: Int
        /// Open connections from one client address; 0 means no limit.
        var perAddressLimit: Int
        var headTimeoutNanoseconds: UInt64
        /// 0 means no minimum.
        var bodyMinimumBytesPerSecond: Int
    }

    /// One admitted connection; libmicrohttpd keeps it as the connection's socket context.
    final class Entry: Sendable {
        enum Phase: UInt8, AtomicRepresentable {
            /// Waiting for a request line and headers, until `deadline`.
            case awaitingHead
            /// Receiving a body, which must be complete by `deadline`.
            case body
            /// The request is being handled or answered: no deadline here.
            case busy
            /// The guard ended the connection.
            case ended
        }

        let descriptor: Int32
        let address: String
        let phase = Atomic<Phase>(.awaitingHead)
        /// Monotonic nanoseconds.
        let deadline: Atomic<UInt64>
        /// When the body began, for its rate.
        let bodyStart = Atomic<UInt64>(0)
        /// Whether a request was answered on it: a kept-alive connection past the head deadline
        /// is closed without a 408, which a client could take for the answer to a request it
        /// sends on the connection just then.
        let servedRequest = Atomic<Bool>(false)

        init(descriptor: Int32, address: String, deadline: UInt64) {
            self.descriptor = descriptor
            self.address = address
            self.deadline = Atomic(deadline)
        }
    }

    /// What the guard has done, for tests and logs.
    final class Counters: Sendable {
        let refusedOverLimit = Atomic<Int>(0)
        let refusedOverAddressLimit = Atomic<Int>(0)
        let headTimeouts = Atomic<Int>(0)
        let bodyTimeouts = Atomic<Int>(0)
    }

    private struct Registry {
        var entries: [Int32: Entry] = [:]
        var perAddress: [String: Int] = [:]
        var stopping = false
        var running = false
    }

    let limits: Limits
    let counters = Counters()
    private let registry = Mutex(Registry())
    private let wakePipe = WakePipe()
    private let finished = ConditionLock(false)
    /// Called on the guard's thread at every check, with the check's monotonic time (the idle
    /// memory trimmer).
    private let onTick: @Sendable (UInt64) -> Void

    /// The 503 and 408 answers, whole (status line, headers, JSON body), written straight to the
    /// socket: neither request is one libmicrohttpd will answer.
    private let overLimitAnswer: [UInt8]
    private let headTimeoutAnswer: [UInt8]

    init(limits: Limits, onTick: @escaping @Sendable (UInt64) -> Void = { _ in }) {
        self.limits = limits
        self.onTick = onTick
        overLimitAnswer = Self.wireAnswer(
            GoogleAPIError.unavailable("The server has too many open connections; try again shortly."),
            statusLine: "503 Service Unavailable",
            extraHeaders: "Retry-After: 1\r\n"
        )
        headTimeoutAnswer = Self.wireAnswer(
            GoogleAPIError(
                code: 408,
                message: "The request line and headers did not arrive in time.",
                status: .deadlineExceeded
            ),
            statusLine: "408 Request Timeout",
            extraHeaders: ""
        )
    }

    // MARK: Connections

    /// Registers a connection just accepted on `descriptor` from `address`, or, past a limit,
    /// answers it 503 and shuts it down (libmicrohttpd then closes it). Returns the entry to
    /// keep as the connection's context, `nil` for a refused one.
    func admit(descriptor: Int32, address: String, now: UInt64) -> Entry? {
        let entry = Entry(descriptor: descriptor, address: address, deadline: now &+ limits.headTimeoutNanoseconds)
        /// `nil` when admitted, else whether it is the per-address limit that refuses.
        let refusedForAddress = registry.withLock { registry -> Bool? in
            if registry.entries.count >= limits.connectionLimit { return false }
            let fromAddress = registry.perAddress[address, default: 0]
            if limits.perAddressLimit > 0 && fromAddress >= limits.perAddressLimit { return true }
            registry.perAddress[address] = fromAddress + 1
            registry.entries[descriptor] = entry
            return nil
        }
        guard let refusedForAddress else { return entry }
        if refusedForAddress {
            counters.refusedOverAddressLimit.add(1, ordering: .relaxed)
        } else {
            counters.refusedOverLimit.add(1, ordering: .relaxed)
        }
        end(descriptor: descriptor, answer: overLimitAnswer)
        return nil
    }

    /// Forgets a connection libmicrohttpd is about to close.
    func release(_ entry: Entry) {
        registry.withLock { registry in
            guard registry.entries[entry.descriptor] === entry else { return }
            registry.entries[entry.descriptor] = nil
            let remaining = registry.perAddress[entry.address, default: 1] - 1
            registry.perAddress[entry.address] = remaining > 0 ? remaining : nil
        }
    }

    /// Connections admitted and not yet closed.
    var openCount: Int { registry.withLock { $0.entries.count } }

    /// The headers of a request are in: its body now runs against the rate. `false` when the
    /// guard has ended the connection already.
    func headReceived(_ entry: Entry, now: UInt64) -> Bool {
        entry.bodyStart.store(now, ordering: .relaxed)
        entry.deadline.store(now &+ limits.headTimeoutNanoseconds, ordering: .relaxed)
        return entry.phase.compareExchange(expected: .awaitingHead, desired: .body, ordering: .acquiringAndReleasing)
            .exchanged
    }

    /// `receivedBytes` of the body are in: the deadline moves out by what they earn at the
    /// minimum rate.
    func bodyProgressed(_ entry: Entry, receivedBytes: Int) {
        guard limits.bodyMinimumBytesPerSecond > 0 else {
            entry.deadline.store(UInt64.max, ordering: .relaxed)
            return
        }
        let earned = UInt64(receivedBytes) &* 1_000_000_000 / UInt64(limits.bodyMinimumBytesPerSecond)
        entry.deadline.store(
            entry.bodyStart.load(ordering: .relaxed) &+ limits.headTimeoutNanoseconds &+ earned,
            ordering: .relaxed
        )
    }

    /// The body is complete: the request is handled with no deadline. `false` when the guard
    /// has ended the connection already.
    func bodyReceived(_ entry: Entry) -> Bool {
        entry.phase.compareExchange(expected: .body, desired: .busy, ordering: .acquiringAndReleasing).exchanged
    }

    /// The answer went out: the connection waits for its next request, under a new deadline.
    func requestFinished(_ entry: Entry, now: UInt64) {
        entry.servedRequest.store(true, ordering: .relaxed)
        entry.deadline.store(now &+ limits.headTimeoutNanoseconds, ordering: .relaxed)
        _ = entry.phase.compareExchange(expected: .busy, desired: .awaitingHead, ordering: .acquiringAndReleasing)
        _ = entry.phase.compareExchange(expected: .body, desired: .awaitingHead, ordering: .acquiringAndReleasing)
    }

    // MARK: The deadline thread

    /// Starts the thread that enforces the deadlines (once).
    func start() {
        let starts = registry.withLock { registry -> Bool in
            guard !registry.running, !registry.stopping, wakePipe.isOpen else { return false }
            registry.running = true
            return true
        }
        guard starts else { return }
        startBackgroundThread(named: "hearth-deadline") { [self] in run() }
    }

    /// Ends the thread and waits for it. Idempotent.
    func stop() {
        let wasRunning = registry.withLock { registry -> Bool in
            guard registry.running, !registry.stopping else { return false }
            registry.stopping = true
            return true
        }
        guard wasRunning else { return }
        wakePipe.wake()
        finished.wait(until: { $0 }, then: { $0 = false })
        registry.withLock {
            $0.stopping = false
            $0.running = false
        }
    }

    /// How often the deadlines are checked: a quarter of the head timeout, at most 250 ms.
    private var tickMilliseconds: Int32 {
        Int32(clamping: max(10, min(250, limits.headTimeoutNanoseconds / 4_000_000)))
    }

    private func run() {
        while true {
            var wake = pollfd(fd: wakePipe.readDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&wake, 1, tickMilliseconds)
            if registry.withLock({ $0.stopping }) { break }
            let now = ServerCore.monotonicNanoseconds()
            enforceDeadlines(now: now)
            onTick(now)
        }
        finished.withLockThenBroadcast { $0 = true }
    }

    /// Ends every connection past its deadline: 408 for the first request's head, a plain
    /// close for a kept-alive connection's and for a body too slow.
    func enforceDeadlines(now: UInt64) {
        registry.withLock { registry in
            for entry in registry.entries.values where entry.deadline.load(ordering: .relaxed) < now {
                if entry.phase.compareExchange(
                    expected: .awaitingHead,
                    desired: .ended,
                    ordering: .acquiringAndReleasing
                )
                .exchanged {
                    counters.headTimeouts.add(1, ordering: .relaxed)
                    end(
                        descriptor: entry.descriptor,
                        answer: entry.servedRequest.load(ordering: .relaxed) ? [] : headTimeoutAnswer
                    )
                } else if entry.phase.compareExchange(
                    expected: .body,
                    desired: .ended,
                    ordering: .acquiringAndReleasing
                )
                .exchanged {
                    counters.bodyTimeouts.add(1, ordering: .relaxed)
                    end(descriptor: entry.descriptor, answer: [])
                }
            }
        }
    }

    /// Writes `answer` (as much as the socket takes at once) and shuts the socket down both
    /// ways. What the client sent and the server has not read is read first: closing a socket
    /// with unread bytes sends a reset, which can destroy the answer before the client reads it.
    private func end(descriptor: Int32, answer: [UInt8]) {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while recv(descriptor, &scratch, scratch.count, Int32(MSG_DONTWAIT)) > 0 {}
        if !answer.isEmpty {
            _ = answer.withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
            }
        }
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private static func wireAnswer(_ error: GoogleAPIError, statusLine: String, extraHeaders: String) -> [UInt8] {
        let body = error.response().body
        let head =
            "HTTP/1.1 \(statusLine)\r\nContent-Type: \(Response.jsonContentType)\r\n"
            + "Content-Length: \(body.count)\r\n\(extraHeaders)Connection: close\r\n\r\n"
        return Array(head.utf8) + body
    }
}
