import Glibc
import HearthBase
import Synchronization

/// Keeps reading, and discarding, what a client still sends after the server has answered and
/// closed its side, so that the answer reaches it. Closing a socket with unread bytes in its
/// receive queue makes the kernel send a reset instead of a FIN, and a reset that arrives while
/// the client is still writing its request breaks the write (`EPIPE`, `ECONNRESET`) before the
/// client ever reads the answer waiting for it. That is how a refusal is lost: a 413 for a
/// body sent in one write, libmicrohttpd's own 431 for oversized headers or 400 for broken
/// framing — all answered before the request is read to its end.
///
/// libmicrohttpd has already sent the answer and shut down the writing side (`SHUT_WR`, a FIN)
/// when it reports a connection closed; ``adopt(_:)`` then takes a duplicate of the socket, so
/// libmicrohttpd's `close` does not end it, and one thread reads every adopted socket until the
/// client closes, goes quiet for ``quietSeconds``, passes ``limitBytes`` or ``limitSeconds``
/// (the bounds for a client that would keep sending forever). This is the lingering close of
/// Apache httpd (`ap_lingering_close`) and of nginx (`lingering_close`).
final class LingeringClose: Sendable {
    /// The most bytes read from one socket before it is closed anyway.
    let limitBytes: Int
    /// The longest one socket is kept.
    let limitSeconds: Int
    /// A socket that sends nothing for this long is closed.
    let quietSeconds: Int
    /// The most sockets kept at once; more are closed at once, as without lingering.
    let capacity: Int

    private struct State {
        var adopted: [Int32] = []
        /// Sockets adopted and not yet closed (waiting in `adopted` or being read).
        var held = 0
        var stopping = false
        var running = false
    }

    private let state = Mutex(State())
    /// A pipe that wakes the thread when sockets are adopted or when it must stop.
    private let wakePipe = WakePipe()
    /// Set by the thread as it ends.
    private let finished = ConditionLock(false)

    init(limitBytes: Int, limitSeconds: Int, quietSeconds: Int = 2, capacity: Int) {
        self.limitBytes = max(0, limitBytes)
        self.limitSeconds = max(0, limitSeconds)
        self.quietSeconds = max(1, min(quietSeconds, max(1, limitSeconds)))
        self.capacity = max(1, capacity)
    }

    /// Starts the reading thread (once).
    func start() {
        let starts = state.withLock { state -> Bool in
            guard !state.running, !state.stopping, limitBytes > 0, limitSeconds > 0, wakePipe.isOpen else {
                return false
            }
            state.running = true
            return true
        }
        guard starts else { return }
        startBackgroundThread(named: "hearth-linger") { [self] in run() }
    }

    /// Takes over reading `descriptor`, a socket the server has answered on and is about to
    /// close, when the client has not closed its side yet. The caller still closes its own
    /// `descriptor`. Safe from any thread.
    func adopt(_ descriptor: Int32) {
        guard descriptor >= 0 else { return }
        // The client closed already (end of stream) or the socket failed: nothing to wait for.
        var probe: UInt8 = 0
        let peeked = recv(descriptor, &probe, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { return }
        let duplicate = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else { return }
        let kept = state.withLock { state -> Bool in
            guard state.running, !state.stopping, state.held < capacity else { return false }
            state.adopted.append(duplicate)
            state.held += 1
            return true
        }
        guard kept else {
            close(duplicate)
            return
        }
        wakePipe.wake()
    }

    /// Sockets adopted that the thread has not taken yet (for tests).
    var queuedForTesting: Int { state.withLock { $0.adopted.count } }

    /// Closes every socket still kept and ends the thread; waits for it. Idempotent; ``start()``
    /// may follow.
    func stop() {
        let wasRunning = state.withLock { state -> Bool in
            guard state.running, !state.stopping else { return false }
            state.stopping = true
            return true
        }
        guard wasRunning else { return }
        wakePipe.wake()
        finished.wait(until: { $0 }, then: { $0 = false })
        state.withLock { $0.stopping = false }
    }

    private struct Kept {
        let descriptor: Int32
        var bytes = 0
        let deadline: ContinuousClock.Instant
        var quietDeadline: ContinuousClock.Instant
    }

    private func run() {
        var kept: [Kept] = []
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let (newlyAdopted, stopping) = state.withLock { state -> ([Int32], Bool) in
                defer { state.adopted.removeAll(keepingCapacity: true) }
                return (state.adopted, state.stopping)
            }
            let now = ContinuousClock.now
            for descriptor in newlyAdopted {
                kept.append(
                    Kept(
                        descriptor: descriptor,
                        deadline: now + .seconds(limitSeconds),
                        quietDeadline: now + .seconds(quietSeconds)
                    )
                )
            }
            if stopping {
                for socket in kept { close(socket.descriptor) }
                state.withLock { state in
                    for descriptor in state.adopted { close(descriptor) }
                    state.adopted = []
                    state.held = 0
                    state.running = false
                }
                finished.withLockThenBroadcast { $0 = true }
                return
            }

            var descriptors = [pollfd(fd: wakePipe.readDescriptor, events: Int16(POLLIN), revents: 0)]
            descriptors += kept.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            let nearest = kept.map { min($0.deadline, $0.quietDeadline) }.min()
            let timeout = nearest.map { Self.milliseconds(until: $0, from: now) } ?? -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 && errno != EINTR { continue }
            if descriptors[0].revents != 0 {
                wakePipe.drain()
            }

            let after = ContinuousClock.now
            var remaining: [Kept] = []
            remaining.reserveCapacity(kept.count)
            for (index, var socket) in kept.enumerated() {
                var done = false
                if descriptors[index + 1].revents != 0 {
                    done = discard(&socket, into: &scratch)
                    socket.quietDeadline = after + .seconds(quietSeconds)
                }
                if done || after >= socket.deadline || after >= socket.quietDeadline {
                    close(socket.descriptor)
                } else {
                    remaining.append(socket)
                }
            }
            if remaining.count < kept.count {
                let closed = kept.count - remaining.count
                state.withLock { $0.held -= closed }
            }
            kept = remaining
        }
    }

    /// Reads what is waiting on `socket`; answers whether it is finished (closed by the
    /// client, failed, or over the byte limit).
    private func discard(_ socket: inout Kept, into scratch: inout [UInt8]) -> Bool {
        while true {
            let count = scratch.withUnsafeMutableBytes {
                recv(socket.descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            if count > 0 {
                socket.bytes += count
                if socket.bytes > limitBytes { return true }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            return !(count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        }
    }

    /// Whole milliseconds from `now` until `deadline`, rounded up (poll's timeout).
    private static func milliseconds(until deadline: ContinuousClock.Instant, from now: ContinuousClock.Instant)
        -> Int32
    {
        let (seconds, attoseconds) = max(.zero, deadline - now).components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }
}
