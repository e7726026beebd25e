import CMicroHTTPD
import Glibc
import HearthBase
import Synchronization

/// The request lifecycle on libmicrohttpd: read limits from the headers, collect the body,
/// build the ``Request``, run the responder, queue the answer, log it.
extension ServerCore {
    func handle(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        version: UnsafePointer<CChar>,
        uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>,
        requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        // The URI log callback made the state; without it there is nothing to answer with.
        guard let stateAddress = requestContext.pointee else { return .NO }
        let state = Unmanaged<RequestState>.fromOpaque(stateAddress).takeUnretainedValue()
        guard state.begun else {
            state.begun = true
            return begin(connection: connection, url: url, method: method, version: version, state: state)
        }
        let chunkSize = uploadDataSize.pointee
        if chunkSize > 0 {
            // Everything is consumed: bytes past the limit are counted and dropped.
            uploadDataSize.pointee = 0
            state.body.append(UnsafeRawBufferPointer(start: uploadData, count: chunkSize))
            if let entry = Self.guardEntry(connection) {
                connectionGuard.bodyProgressed(entry, receivedBytes: state.body.receivedBytes)
            }
            return abandons(state) ? .NO : .YES
        }
        guard !state.answered else {
            // A suspended request comes back here when its deferred response has arrived.
            guard let response = state.completed.withLock({ $0.take() }) else { return .YES }
            return send(
                response,
                connection: connection,
                method: state.method,
                path: state.path,
                remoteAddress: state.remoteAddress,
                startNanoseconds: state.startNanoseconds
            )
        }
        state.answered = true
        // The guard cut the body off meanwhile.
        guard let entry = Self.guardEntry(connection), connectionGuard.bodyReceived(entry) else { return .NO }
        return answer(connection: connection, url: url, method: method, state: state)
    }

    /// Whether to stop reading a body that has already failed (413, corrupt gzip): past the
    /// refusal's drain bounds the connection is closed without an answer.
    private func abandons(_ state: RequestState) -> Bool {
        guard state.body.failure != nil else { return false }
        return state.body.shouldAbandon(discardLimit: refusalDrainBytes)
            || Self.monotonicNanoseconds() &- state.startNanoseconds > refusalDrainNanoseconds
    }

    /// The first call: headers are in, the body is not. Refuses ambiguous framing
    /// (``RequestFraming``) with `Connection: close`, so nothing after it on the connection is
    /// read as a request. Answers 415 or 413 at once when the headers already show the body
    /// cannot be accepted: libmicrohttpd then skips the upload and closes the connection after
    /// the answer, and ``LingeringClose`` reads what the client still sends so that it can
    /// finish writing and read the answer.
    private func begin(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        version: UnsafePointer<CChar>,
        state: RequestState
    ) -> MHD_Result {
        let start = state.startNanoseconds
        // A connection the guard refused, or one whose head came after its deadline.
        guard let entry = Self.guardEntry(connection),
            connectionGuard.headReceived(entry, now: Self.monotonicNanoseconds())
        else { return .NO }
        let framingRefusal =
            state.targetHoldsControlByte || state.targetWasCut(url: url, version: version)
            ? RequestFraming.controlByteInTarget
            : RequestFraming.refusal(headers: Self.rawHeaders(connection))
        if let framingRefusal {
            state.answered = true
            let refusal = GoogleAPIError(
                code: framingRefusal.status,
                message: framingRefusal.message,
                status: framingRefusal.status == .notImplemented ? .unimplemented : .invalidArgument
            ).response()
            return send(
                refusal,
                connection: connection,
                method: HTTPMethod(cString: method),
                path: String(cString: url),
                remoteAddress: clientAddress(connection),
                startNanoseconds: start,
                closing: true
            )
        }
        let encoding = RequestBody.Encoding(headerValue: Self.header(connection, "Content-Encoding"))
        let expectedLength = Self.header(connection, "Content-Length").flatMap { Int($0) }
        state.body = RequestBody(encoding: encoding ?? .identity, limit: maxBodyBytes, expectedLength: expectedLength)

        let early: Response
        if encoding == nil {
            early = GoogleAPIError(
                code: .unsupportedMediaType,
                message: "Unsupported Content-Encoding; send identity or gzip.",
                status: .invalidArgument
            ).response()
        } else if let expectedLength, expectedLength > maxBodyBytes {
            early = tooLargeResponse()
        } else {
            return .YES
        }
        state.answered = true
        return send(
            early,
            connection: connection,
            method: HTTPMethod(cString: method),
            path: String(cString: url),
            remoteAddress: clientAddress(connection),
            startNanoseconds: start
        )
    }

    /// The last call: the body is complete.
    private func answer(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        state: RequestState
    ) -> MHD_Result {
        let httpMethod = HTTPMethod(cString: method)
        if let fixed = staticResponse(url: url, method: httpMethod), state.body.receivedBytes == 0 {
            return send(
                fixed,
                connection: connection,
                method: httpMethod,
                path: String(cString: url),
                remoteAddress: clientAddress(connection),
                startNanoseconds: state.startNanoseconds
            )
        }
        let path = String(cString: url)
        let remoteAddress = clientAddress(connection)
        let response: Response
        switch state.body.finish() {
        case .failure(.tooLarge):
            response = tooLargeResponse()
        case .failure(.corruptGzip):
            response = GoogleAPIError.invalidArgument("The request body is not valid gzip data.").response()
        case .success(let body):
            let request = Request(
                method: httpMethod,
                path: path,
                query: Self.queryItems(connection),
                headers: Self.headers(connection),
                body: body,
                remoteAddress: remoteAddress
            )
            response = responder.respond(to: request)
        }
        if let deferral = response.deferral {
            return suspend(
                connection: connection,
                state: state,
                deferral: deferral,
                method: httpMethod,
                path: path,
                remoteAddress: remoteAddress
            )
        }
        return send(
            response,
            connection: connection,
            method: httpMethod,
            path: path,
            remoteAddress: remoteAddress,
            startNanoseconds: state.startNanoseconds
        )
    }

    /// Parks the connection until the deferred response arrives; the worker thread goes back
    /// to its other connections. libmicrohttpd calls the handler again after the resume.
    private func suspend(
        connection: OpaquePointer,
        state: RequestState,
        deferral: Deferral,
        method: HTTPMethod,
        path: String,
        remoteAddress: String
    ) -> MHD_Result {
        state.method = method
        state.path = path
        state.remoteAddress = remoteAddress
        MHD_suspend_connection(connection)
        let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
        let promise = ResponsePromise { [state] response in
            var response = response
            response.deferral = nil
            for transform in deferral.transforms { transform(&response) }
            state.completed.withLock { $0 = response }
            // Safe from any thread; the connection stays valid while suspended.
            MHD_resume_connection(OpaquePointer(bitPattern: address))
        }
        deferral.start(promise)
        return .YES
    }

    /// Queues `response` and writes the access log line. libmicrohttpd adds `Date` and
    /// `Content-Length`, leaves the body out for `HEAD`, and handles `Connection` (keep-alive
    /// for HTTP/1.1, only on request for HTTP/1.0, close when the client asks).
    private func send(
        _ response: Response,
        connection: OpaquePointer,
        method: HTTPMethod,
        path: String,
        remoteAddress: String,
        startNanoseconds: UInt64,
        closing: Bool = false
    ) -> MHD_Result {
        let allowsBody = response.status.allowsBody
        let queued: MHD_Result
        let closing = closing || draining.load(ordering: .relaxed)
        if let fixed = response.wireForm, !closing {
            guard let mhdResponse = fixed.mhdResponse({ Self.makeResponse(response, closing: false) }) else {
                return .NO
            }
            queued = MHD_queue_response(connection, UInt32(response.status.code), mhdResponse)
        } else {
            guard let mhdResponse = Self.makeResponse(response, closing: closing) else {
                return .NO
            }
            queued = MHD_queue_response(connection, UInt32(response.status.code), mhdResponse)
            MHD_destroy_response(mhdResponse)
        }

        if let accessLog {
            let elapsed = Self.monotonicNanoseconds() &- startNanoseconds
            accessLog.record(
                method: method,
                path: path,
                status: response.status.code,
                bytes: allowsBody && method != .head ? response.body.count : 0,
                durationMicros: Int64(elapsed / 1000),
                remote: remoteAddress
            )
        }
        return queued
    }

    /// Builds the libmicrohttpd form of `response` (the caller destroys it).
    private static func makeResponse(_ response: Response, closing: Bool) -> OpaquePointer? {
        let allowsBody = response.status.allowsBody
        let created = response.body.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(
                allowsBody ? raw.count : 0,
                UnsafeMutableRawPointer(mutating: raw.baseAddress),
                .RESPMEM_MUST_COPY
            )
        }
        guard let mhdResponse = created else { return nil }
        for field in response.headers {
            // libmicrohttpd refuses values with CR or LF (no header injection) and a
            // hand-written Content-Length; such fields are dropped.
            _ = field.name.withCString { name in
                field.value.withCString { value in MHD_add_response_header(mhdResponse, name, value) }
            }
        }
        if closing {
            _ = MHD_add_response_header(mhdResponse, "Connection", "close")
        }
        return mhdResponse
    }

    // MARK: Reading the request from libmicrohttpd

    private static func header(_ connection: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }

    private static func headers(_ connection: OpaquePointer) -> HTTPHeaders {
        var headers = HTTPHeaders(reservingCapacity: 8)
        withUnsafeMutablePointer(to: &headers) { target in
            _ = MHD_get_connection_values_n(
                connection,
                .HEADER_KIND,
                { target, _, name, nameLength, value, valueLength in
                    let headers = target!.assumingMemoryBound(to: HTTPHeaders.self)
                    headers.pointee.add(
                        ServerCore.lowercasedString(name, nameLength),
                        ServerCore.string(value, valueLength)
                    )
                    return .YES
                },
                target
            )
        }
        return headers
    }

    /// Every header as received (names not lower-cased), duplicates included.
    private static func rawHeaders(_ connection: OpaquePointer) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        withUnsafeMutablePointer(to: &headers) { target in
            _ = MHD_get_connection_values_n(
                connection,
                .HEADER_KIND,
                { target, _, name, nameLength, value, valueLength in
                    let headers = target!.assumingMemoryBound(to: [(name: String, value: String)].self)
                    headers.pointee.append((ServerCore.string(name, nameLength), ServerCore.string(value, valueLength)))
                    return .YES
                },
                target
            )
        }
        return headers
    }

    /// Query arguments, raw from libmicrohttpd (see `MicroHTTPDCallbacks.keepEscaped`) and
    /// decoded here.
    private static func queryItems(_ connection: OpaquePointer) -> QueryItems {
        var items = QueryItems()
        withUnsafeMutablePointer(to: &items) { target in
            _ = MHD_get_connection_values_n(
                connection,
                .GET_ARGUMENT_KIND,
                { target, _, name, nameLength, value, valueLength in
                    let items = target!.assumingMemoryBound(to: QueryItems.self)
                    items.pointee.append(
                        PercentDecoding.decode(bytes: ServerCore.bytes(name, nameLength), plusAsSpace: true),
                        PercentDecoding.decode(bytes: ServerCore.bytes(value, valueLength), plusAsSpace: true)
                    )
                    return .YES
                },
                target
            )
        }
        return items
    }

    /// The client's address: the TCP peer's, or the one a trusted proxy's `X-Forwarded-For`
    /// names (see ``TrustedProxies``).
    private func clientAddress(_ connection: OpaquePointer) -> String {
        guard let info = CMicroHTTPD_connection_info(connection, .CONNECTION_INFO_CLIENT_ADDRESS),
            let address = info.pointee.client_addr
        else { return "" }
        let peer = SocketAddress.describe(address)
        guard !trustedProxies.isEmpty else { return peer }
        return trustedProxies.clientAddress(peer: peer, forwardedFor: Self.forwardedFor(connection))
    }

    /// Every `X-Forwarded-For` value, in the order received.
    private static func forwardedFor(_ connection: OpaquePointer) -> [String] {
        var values: [String] = []
        withUnsafeMutablePointer(to: &values) { target in
            _ = MHD_get_connection_values_n(
                connection,
                .HEADER_KIND,
                { target, _, name, nameLength, value, valueLength in
                    let name = ServerCore.bytes(name, nameLength)
                    if name.count == forwardedForName.count,
                        zip(name, forwardedForName).allSatisfy({ ASCII.lowercased($0) == $1 })
                    {
                        target!.assumingMemoryBound(to: [String].self).pointee
                            .append(ServerCore.string(value, valueLength))
                    }
                    return .YES
                },
                target
            )
        }
        return values
    }

    private static func bytes(_ pointer: UnsafePointer<CChar>?, _ count: Int) -> UnsafeBufferPointer<UInt8> {
        guard let pointer else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: count)
    }

    private static func string(_ pointer: UnsafePointer<CChar>?, _ count: Int) -> String {
        String(decoding: bytes(pointer, count), as: UTF8.self)
    }

    private static func lowercasedString(_ pointer: UnsafePointer<CChar>?, _ count: Int) -> String {
        let source = bytes(pointer, count)
        return String(unsafeUninitializedCapacity: count) { target in
            for index in 0..<count { target[index] = ASCII.lowercased(source[index]) }
            return count
        }
    }

    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }
}

private let forwardedForName = Array("x-forwarded-for".utf8)
