import CCurl

/// An outgoing HTTP request (webhook deliveries, `hearth doctor links`).
public struct OutgoingRequest: Sendable {
    public var url: String
    public var method: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    public var timeoutMilliseconds: Int

    public init(
        url: String,
        method: String = "POST",
        headers: [(name: String, value: String)] = [],
        body: [UInt8] = [],
        timeoutMilliseconds: Int = 10_000
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeoutMilliseconds = timeoutMilliseconds
    }
}

/// What came back: the status, two header fields and (at most `maximumBodyBytes` of) the body.
public struct IncomingResponse: Sendable {
    public var status: Int
    public var body: [UInt8]
    /// The `Content-Type` field, as sent.
    public var contentType: String? = nil
    /// Where a redirect points (the `Location` field, resolved), when the answer is one.
    public var redirectLocation: String? = nil
}

/// Sends HTTP(S) requests with libcurl. Only `http` and `https` URLs, no redirects followed,
/// every request bounded by its timeout; the calling thread blocks until the answer.
public enum HTTPClient {
    public static let maximumBodyBytes = 64 * 1024

    public static func send(_ request: OutgoingRequest) throws(NetworkError) -> IncomingResponse {
        let easy = try CurlEasy()
        try easy.set(CURLOPT_URL, request.url)
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_FOLLOWLOCATION, 0)
        try easy.set(CURLOPT_TIMEOUT_MS, request.timeoutMilliseconds)
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, min(request.timeoutMilliseconds, 5_000))
        try easy.set(CURLOPT_CUSTOMREQUEST, request.method)
        try easy.setHeaders(request.headers.map { "\($0.name): \($0.value)" } + ["Expect:"])
        if !request.body.isEmpty || request.method == "POST" || request.method == "PUT" {
            try easy.set(CURLOPT_POSTFIELDSIZE, request.body.count)
            // COPYPOSTFIELDS copies the bytes, so they need not outlive this call.
            let code = request.body.withUnsafeBytes { bytes in
                CCurl_setopt_pointer(
                    easy.handle,
                    CURLOPT_COPYPOSTFIELDS,
                    UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!)
                )
            }
            guard code == CURLE_OK else { throw NetworkError(.transport, "cannot set the request body") }
        }
        let sink = ResponseSink()
        let unmanaged = Unmanaged.passRetained(sink)
        defer { unmanaged.release() }
        CCurl_setopt_write_callback(easy.handle, ResponseSink.write)
        CCurl_setopt_pointer(easy.handle, CURLOPT_WRITEDATA, unmanaged.toOpaque())
        try easy.perform()
        return IncomingResponse(
            status: easy.responseCode(),
            body: sink.bytes,
            contentType: easy.info(CURLINFO_CONTENT_TYPE),
            redirectLocation: easy.info(CURLINFO_REDIRECT_URL)
        )
    }
}

/// Collects the response body; libcurl calls `write` on the transferring thread.
private final class ResponseSink {
    var bytes: [UInt8] = []

    static let write: curl_write_callback = { data, size, count, context in
        let length = size * count
        guard let data, let context else { return length }
        let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
        let room = max(0, HTTPClient.maximumBodyBytes - sink.bytes.count)
        sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: min(length, room)))
        return length
    }
}
