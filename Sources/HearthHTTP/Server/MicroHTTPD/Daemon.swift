import CMicroHTTPD
import Glibc
import Synchronization

/// Owns one running `MHD_Daemon` (one epoll thread), its listening socket and the retained
/// ``ServerCore`` that the callbacks see; stops them in `deinit` if ``stop()`` was not called.
/// The server runs one daemon per worker thread, each on its own `SO_REUSEPORT` socket, so
/// the kernel spreads connections evenly (a shared socket lets one worker take them all).
final class Daemon: Sendable {
    /// Only `quiesce()` and `stop()` use the pointer, and `lifecycle` orders them (each runs
    /// once, never a quiesce after the stop has begun).
    nonisolated(unsafe) private let pointer: OpaquePointer
    private let listenDescriptor: Int32
    private let core: Unmanaged<ServerCore>
    private let lifecycle = Mutex<(quiesced: Bool, stopped: Bool)>((false, false))
    let port: Int

    /// Starts a daemon on `socket` (it takes ownership) accepting up to `connectionLimit`
    /// connections.
    init(
        socket: ListenSocket.Opened,
        connectionLimit: Int,
        configuration: HTTPServer.Configuration,
        core: ServerCore
    ) throws(HTTPServerError) {
        let retained = Unmanaged.passRetained(core)
        let context = retained.toOpaque()
        var options: [MHD_OptionItem] = [
            // First, so that start-up messages go to our log too.
            Self.option(.EXTERNAL_LOGGER, unsafeBitCast(MicroHTTPDCallbacks.logger, to: Int.self), context),
            Self.option(.LISTEN_SOCKET, Int(socket.descriptor)),
            // The limits across daemons are the ConnectionGuard's; this one only bounds what a
            // daemon accepts (the guard's refusals included).
            Self.option(.CONNECTION_LIMIT, max(1, connectionLimit)),
            Self.option(.CONNECTION_TIMEOUT, max(0, configuration.connectionTimeoutSeconds)),
            Self.option(.CONNECTION_MEMORY_LIMIT, max(4096, configuration.connectionMemoryLimitBytes)),
            Self.option(.NOTIFY_COMPLETED, unsafeBitCast(MicroHTTPDCallbacks.requestCompleted, to: Int.self), context),
            Self.option(
                .NOTIFY_CONNECTION,
                unsafeBitCast(MicroHTTPDCallbacks.connectionNotified, to: Int.self),
                context
            ),
            Self.option(
                .URI_LOG_CALLBACK,
                unsafeBitCast(MicroHTTPDCallbacks.requestLineRead, to: Int.self),
                context
            ),
            Self.option(.UNESCAPE_CALLBACK, unsafeBitCast(MicroHTTPDCallbacks.keepEscaped, to: Int.self)),
        ]
        options.append(Self.option(.END, 0))

        // Epoll in internal worker threads is the fastest mode; ITC lets us quiesce.
        var flags =
            MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if configuration.host.contains(":") { flags |= MHD_USE_IPv6.rawValue }
        let daemon = options.withUnsafeMutableBufferPointer { buffer in
            CMicroHTTPD_start(flags, 0, MicroHTTPDCallbacks.accessHandler, context, buffer.baseAddress)
        }
        guard let daemon else {
            close(socket.descriptor)
            retained.release()
            throw .daemonFailedToStart
        }
        pointer = daemon
        listenDescriptor = socket.descriptor
        port = socket.port
        self.core = retained
    }

    deinit { stop() }

    /// Stops accepting connections; open ones carry on.
    func quiesce() {
        // Held through the call (it only signals the workers), so a concurrent stop() waits.
        lifecycle.withLock { state in
            guard !state.quiesced && !state.stopped else { return }
            state.quiesced = true
            _ = MHD_quiesce_daemon(pointer)
            // The socket may not be closed before MHD_stop_daemon (a worker could still hold
            // it), but while it stays open the kernel would keep completing handshakes nobody
            // accepts. Shutting it down for reading ends the listen state: connects are refused.
            shutdown(listenDescriptor, Int32(SHUT_RD))
        }
    }

    /// Closes every connection and joins the worker threads. Idempotent.
    func stop() {
        // Not held through MHD_stop_daemon: it waits for handlers, and one of them may be
        // calling quiesce() (which then sees `stopped` and returns).
        let quiesced = lifecycle.withLock { state -> Bool? in
            guard !state.stopped else { return nil }
            state.stopped = true
            return state.quiesced
        }
        guard let quiesced else { return }
        MHD_stop_daemon(pointer)
        // After a quiesce the socket is ours to close; otherwise MHD_stop_daemon closed it.
        if quiesced { close(listenDescriptor) }
        core.release()
    }

    private static func option(_ option: MHD_OPTION, _ value: Int, _ pointer: UnsafeMutableRawPointer? = nil)
        -> MHD_OptionItem
    {
        MHD_OptionItem(option: option, value: value, ptr_value: pointer)
    }
}
