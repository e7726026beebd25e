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
        _,
        uploadData,
        uploadDataSize,
        requestContext in
        let core = Unmanaged<ServerCore>.fromOpaque(serverContext!).takeUnretainedValue()
        return core.handle(
            connection: connection!,
            url: url!,
            method: method!,
            uploadData: uploadData,
            uploadDataSize: uploadDataSize!,
            requestContext: requestContext!
        )
    }

    /// Called once for every request the access handler saw, finished or aborted.
    static let requestCompleted: MHD_RequestCompletedCallback = { serverContext, _, requestContext, _ in
        guard let requestContext, let state = requestContext.pointee else { return }
        requestContext.pointee = nil
        Unmanaged<RequestState>.fromOpaque(state).release()
        Unmanaged<ServerCore>.fromOpaque(serverContext!).takeUnretainedValue().inFlight.subtract(
            1,
            ordering: .releasing
        )
    }

    /// Hands every connection libmicrohttpd is about to close to ``LingeringClose``, which
    /// keeps reading it if the client is still sending (libmicrohttpd's `close` follows this
    /// call; its answer and FIN have gone out already).
    static let connectionNotified: MHD_NotifyConnectionCallback = { serverContext, connection, _, code in
        guard code == .CONNECTION_NOTIFY_CLOSED, let serverContext, let connection,
            let info = CMicroHTTPD_connection_info(connection, .CONNECTION_INFO_CONNECTION_FD)
        else { return }
        Unmanaged<ServerCore>.fromOpaque(serverContext).takeUnretainedValue().lingeringClose.adopt(
            info.pointee.connect_fd
        )
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
