import CMicroHTTPD
import Glibc
import HearthBase
import Synchronization

/// The C callbacks handed to libmicrohttpd. They are stored closures of a non-isolated type on
/// purpose: libmicrohttpd calls them on its own threads, and a closure formed in actor-isolated
/// code (such as `main.swift`) would trap there. Context travels as `Unmanaged` pointers.
enum MicroHTTPDCallbacks {
    /// Called two or more times per request: first with the headers, then once per body chunk,
    /// then once more with no data, when the answer is due.
    static let accessHandler: MHD_AccessHandlerCallback = {
        serverContext,
        connection,
        url,
        method,
        version,
        uploadData,
        uploadDataSize,
        requestContext in
        let core = Unmanaged<ServerCore>.fromOpaque(serverContext!).takeUnretainedValue()
        return core.handle(
            connection: connection!,
            url: url!,
            method: method!,
            version: version!,
            uploadData: uploadData,
            uploadDataSize: uploadDataSize!,
            requestContext: requestContext!
        )
    }

    /// Called once per request, when its request line is read and before libmicrohttpd
    /// modifies the target in place: the request's state begins here (it becomes the
    /// request's `con_cls`, which the completion callback releases).
    static let requestLineRead:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
            serverContext,
            target,
            _ in
            guard let target else { return nil }
            let core = Unmanaged<ServerCore>.fromOpaque(serverContext!).takeUnretainedValue()
            core.inFlight.add(1, ordering: .relaxed)
            core.memoryTrimmer.noteActivity()
            let state = RequestState(startNanoseconds: ServerCore.monotonicNanoseconds(), target: target)
            return Unmanaged.passRetained(state).toOpaque()
        }

    /// Called once for every request whose request line was read, finished or aborted.
    /// Its connection then waits for the next request, under the head deadline again.
    static let requestCompleted: MHD_RequestCompletedCallback = { serverContext, connection, requestContext, _ in
        guard let requestContext, let state = requestContext.pointee else { return }
        requestContext.pointee = nil
        Unmanaged<RequestState>.fromOpaque(state).release()
        let core = Unmanaged<ServerCore>.fromOpaque(serverContext!).takeUnretainedValue()
        if let connection, let entry = ServerCore.guardEntry(connection) {
            core.connectionGuard.requestFinished(entry, now: ServerCore.monotonicNanoseconds())
        }
        core.inFlight.subtract(1, ordering: .releasing)
    }

    /// A new connection goes to the ``ConnectionGuard`` (which may refuse it); one that
    /// libmicrohttpd is about to close leaves it, and goes to ``LingeringClose``, which keeps
    /// reading it if the client is still sending (libmicrohttpd's `close` follows this call;
    /// its answer and FIN have gone out already).
    static let connectionNotified: MHD_NotifyConnectionCallback = { serverContext, connection, socketContext, code in
        guard let serverContext, let connection,
            let info = CMicroHTTPD_connection_info(connection, .CONNECTION_INFO_CONNECTION_FD)
        else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(serverContext).takeUnretainedValue()
        let descriptor = info.pointee.connect_fd
        switch code {
        case .CONNECTION_NOTIFY_STARTED:
            let address =
                CMicroHTTPD_connection_info(connection, .CONNECTION_INFO_CLIENT_ADDRESS)?.pointee.client_addr.map {
                    SocketAddress.describe($0)
                } ?? ""
            let entry = core.connectionGuard.admit(
                descriptor: descriptor,
                address: address,
                now: ServerCore.monotonicNanoseconds()
            )
            socketContext?.pointee = entry.map { Unmanaged.passRetained($0).toOpaque() }
        case .CONNECTION_NOTIFY_CLOSED:
            if let socketContext, let context = socketContext.pointee {
                socketContext.pointee = nil
                let entry = Unmanaged<ConnectionGuard.Entry>.fromOpaque(context)
                core.connectionGuard.release(entry.takeUnretainedValue())
                entry.release()
            }
            core.memoryTrimmer.noteActivity()
            core.lingeringClose.adopt(descriptor)
        default:
            return
        }
    }

    /// Leaves paths and query arguments percent-encoded (returns their length unchanged):
    /// libmicrohttpd's own unescaping would decode `%2F` into a path separator before routing,
    /// and does not turn `+` into a space in query values. ``RequestPath`` and ``QueryItems``
    /// decode instead.
    static let keepEscaped:
        @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int = {
            _,
            _,
            text in
            strlen(text!)
        }

    /// Sends libmicrohttpd's messages to the server log as warnings.
    static let logger: MHD_LogCallback = { serverContext, format, arguments in
        guard let serverContext, let format else { return }
        var buffer = [CChar](repeating: 0, count: 512)
        guard let arguments else { return }
        let written = vsnprintf(&buffer, buffer.count, format, arguments)
        guard written > 0 else { return }
        var message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        while message.last?.isNewline == true { message.removeLast() }
        Unmanaged<ServerCore>.fromOpaque(serverContext).takeUnretainedValue().log.warning(
            message,
            ["source": "libmicrohttpd"]
        )
    }
}
