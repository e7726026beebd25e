import HearthBase
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server on libmicrohttpd: a pool of epoll worker threads that run the responder
/// synchronously (no task hop per request), with keep-alive, body limits, gzip request bodies
/// and a JSON access log.
///
/// Lifecycle: ``start()``, then at shutdown ``beginShutdown()`` (stop accepting),
/// ``waitForInFlight(timeout:)`` (let running requests finish) and ``stop()``.
public final class HTTPServer: Sendable {
    public let configuration: Configuration
    private let core: ServerCore
    private let daemons = Mutex<[Daemon]>([])
    private let started = Atomic<Bool>(false)

    public init(configuration: Configuration = Configuration(), responder: some HTTPResponder) {
        self.configuration = configuration
        self.core = ServerCore(responder: responder, configuration: configuration)
    }

    public convenience init(
        configuration: Configuration = Configuration(),
        handler: @escaping @Sendable (Request) -> Response
    ) {
        self.init(configuration: configuration, responder: ClosureResponder(handler: handler))
    }

    deinit { stop() }

    /// Binds the configured address and starts the worker threads. Also makes the process
    /// ignore `SIGPIPE` (see `BrokenPipes`).
    ///
    /// - Throws: ``HTTPServerError/addressInUse(host:port:)`` and friends when the address
    ///   cannot be bound; ``HTTPServerError/alreadyStarted`` on a second call.
    public func start() throws(HTTPServerError) {
        guard started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            throw .alreadyStarted
        }
        BrokenPipes.ignore()
        DescriptorLimit.raise(toServe: configuration.connectionLimit, log: configuration.log)
        core.lingeringClose.start()
        core.connectionGuard.start()
        do throws(HTTPServerError) {
            let threads = max(1, configuration.threadCount)
            let sockets = try ListenSocket.openGroup(
                host: configuration.host,
                port: configuration.port,
                backlog: Int32(clamping: configuration.listenBacklog),
                count: threads
            )
            var running: [Daemon] = []
            for (index, socket) in sockets.enumerated() {
                do throws(HTTPServerError) {
                    // Any worker may hold the whole limit (the guard counts across them), plus
                    // room to accept the connections the guard answers 503.
                    running.append(
                        try Daemon(
                            socket: socket,
                            connectionLimit: configuration.connectionLimit + Self.refusalRoom,
                            configuration: configuration,
                            core: core
                        )
                    )
                } catch {
                    for daemon in running { daemon.stop() }
                    // The failed daemon closed its own socket.
                    for unused in sockets[(index + 1)...] { close(unused.descriptor) }
                    throw error
                }
            }
            let port = running[0].port
            daemons.withLock { $0 = running }
            configuration.log.info(
                "http server listening",
                ["host": .string(configuration.host), "port": .int(Int64(port)), "threads": .int(Int64(threads))]
            )
        } catch {
            core.lingeringClose.stop()
            core.connectionGuard.stop()
            started.store(false, ordering: .releasing)
            throw error
        }
    }

    /// Connections a worker accepts past the connection limit, to answer them 503.
    static let refusalRoom = 64

    /// Connections open now (admitted by the limits).
    public var openConnectionCount: Int { core.connectionGuard.openCount }

    /// The port the server listens on (the chosen one when configured with port 0), or `nil`
    /// when not running.
    public var boundPort: Int? {
        daemons.withLock { $0.first?.port }
    }

    /// Requests currently being received, handled or answered.
    public var inFlightRequestCount: Int {
        core.inFlight.load(ordering: .acquiring)
    }

    /// Starts answering ``Configuration/staticResponses`` (until then those paths go to the
    /// responder like any other).
    public func enableStaticResponses() {
        core.staticResponsesEnabled.store(true, ordering: .relaxed)
    }

    /// Sends the static responses' paths to the responder again, while their fixed answer
    /// would not be true.
    public func disableStaticResponses() {
        core.staticResponsesEnabled.store(false, ordering: .relaxed)
    }

    /// Stops accepting connections (new ones are refused); requests on open connections are
    /// still served, with `Connection: close` so that clients move on.
    public func beginShutdown() {
        core.draining.store(true, ordering: .releasing)
        for daemon in daemons.withLock({ $0 }) { daemon.quiesce() }
    }

    /// Waits until no request is in flight, or `timeout` passes. Blocks the calling thread.
    ///
    /// - Returns: whether every request finished in time.
    @discardableResult
    public func waitForInFlight(timeout: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while core.inFlight.load(ordering: .acquiring) > 0 {
            guard clock.now < deadline else { return false }
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pause, nil)
        }
        return true
    }

    /// Closes every connection, stops the worker threads and flushes the access log. Requests
    /// still running are cut off; call ``beginShutdown()`` and ``waitForInFlight(timeout:)``
    /// first for a graceful stop.
    public func stop() {
        let running = daemons.withLock { slot -> [Daemon] in
            defer { slot = [] }
            return slot
        }
        guard let port = running.first?.port else { return }
        core.draining.store(true, ordering: .releasing)
        for daemon in running { daemon.stop() }
        core.lingeringClose.stop()
        core.connectionGuard.stop()
        configuration.accessLog?.writer.flush()
        configuration.log.info("http server stopped", ["port": .int(Int64(port))])
        configuration.log.writer.flush()
    }
}
