import CCurl

/// Where and how to deliver mail over SMTP.
public struct SMTPConfiguration: Sendable, Equatable {
    /// When a plain `smtp://` connection is upgraded with STARTTLS.
    public enum StartTLS: Sendable, Equatable {
        case off, opportunistic, required
    }

    /// `smtp://[user:password@]host[:port]` or `smtps://...` (TLS from the first byte).
    public var url: String
    public var username: String?
    public var password: String?
    /// `nil`: required when credentials are given (they must not travel in clear), else
    /// opportunistic.
    public var startTLS: StartTLS?
    /// The whole transfer, from connecting to the server's answer to the message.
    public var timeoutMilliseconds = 30_000
    public var connectTimeoutMilliseconds = 10_000
    /// Check the server's certificate and name (turn off only for a test server).
    public var verifyCertificate = true

    public init(url: String, username: String? = nil, password: String? = nil, startTLS: StartTLS? = nil) {
        self.url = url
        self.username = username
        self.password = password
        self.startTLS = startTLS
    }

    var hasCredentials: Bool {
        if username != nil { return true }
        let authority = url.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" }
        return authority.contains("@")
    }
}

/// Sends one message over SMTP with libcurl (which does the dialogue, STARTTLS, AUTH and
/// dot-stuffing); the message bytes are written by the caller, CRLF line ends included.
/// The calling thread blocks until the server accepted or refused the message.
public enum SMTPClient {
    /// Delivers `message` from `sender` to `recipients` (bare addresses, used for the
    /// envelope: `MAIL FROM` and `RCPT TO`).
    ///
    /// - Throws: `.rejected` when the server refused with a permanent (5xx) reply, which
    ///   retrying will not change; `.timeout` or `.transport` for anything worth retrying.
    public static func send(
        _ message: [UInt8],
        from sender: String,
        to recipients: [String],
        configuration: SMTPConfiguration
    ) throws(NetworkError) {
        precondition(!recipients.isEmpty, "a message needs a recipient")
        let easy = try CurlEasy()
        try easy.set(CURLOPT_URL, configuration.url)
        try easy.set(CURLOPT_PROTOCOLS_STR, "smtp,smtps")
        try easy.set(CURLOPT_TIMEOUT_MS, configuration.timeoutMilliseconds)
        try easy.set(
            CURLOPT_CONNECTTIMEOUT_MS,
            min(configuration.timeoutMilliseconds, configuration.connectTimeoutMilliseconds)
        )
        let startTLS = configuration.startTLS ?? (configuration.hasCredentials ? .required : .opportunistic)
        let useSSL =
            switch startTLS {
            case .off: CURLUSESSL_NONE
            case .opportunistic: CURLUSESSL_TRY
            case .required: CURLUSESSL_ALL
            }
        try easy.set(CURLOPT_USE_SSL, Int(useSSL.rawValue))
        if !configuration.verifyCertificate {
            try easy.set(CURLOPT_SSL_VERIFYPEER, 0)
            try easy.set(CURLOPT_SSL_VERIFYHOST, 0)
        }
        if let username = configuration.username { try easy.set(CURLOPT_USERNAME, username) }
        if let password = configuration.password { try easy.set(CURLOPT_PASSWORD, password) }
        try easy.set(CURLOPT_MAIL_FROM, "<\(sender)>")
        // The list must live until the transfer is over: it is released after `perform`.
        let recipientList = CurlStringList(recipients.map { "<\($0)>" })
        guard CCurl_setopt_slist(easy.handle, CURLOPT_MAIL_RCPT, recipientList.pointer) == CURLE_OK else {
            throw NetworkError(.transport, "cannot set the recipients")
        }

        let source = MessageSource(message)
        let unmanaged = Unmanaged.passRetained(source)
        defer { unmanaged.release() }
        try easy.set(CURLOPT_UPLOAD, 1)
        try easy.set(CURLOPT_INFILESIZE, message.count)
        CCurl_setopt_read_callback(easy.handle, MessageSource.read)
        CCurl_setopt_pointer(easy.handle, CURLOPT_READDATA, unmanaged.toOpaque())
        do {
            try easy.perform()
        } catch {
            let reply = easy.responseCode()
            // A refused login (530, 534, 535, 538) is the configuration's fault, not the
            // message's: it is worth retrying once the credentials are fixed.
            if (500..<600).contains(reply) && ![530, 534, 535, 538].contains(reply) {
                throw NetworkError(.rejected, "the SMTP server refused the message (\(reply)): \(error.message)")
            }
            throw error
        }
        withExtendedLifetime(recipientList) {}
    }
}

/// Owns a libcurl string list (`curl_slist`) and frees it when released.
private final class CurlStringList {
    let pointer: UnsafeMutablePointer<curl_slist>?

    init(_ strings: [String]) {
        var list: UnsafeMutablePointer<curl_slist>?
        for string in strings { list = curl_slist_append(list, string) }
        pointer = list
    }

    deinit { curl_slist_free_all(pointer) }
}

/// Feeds the message to libcurl, which calls `read` on the transferring thread.
private final class MessageSource {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static let read: curl_read_callback = { buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        let source = Unmanaged<MessageSource>.fromOpaque(context).takeUnretainedValue()
        let length = min(size * count, source.bytes.count - source.offset)
        guard length > 0 else { return 0 }
        source.bytes.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + source.offset, byteCount: length)
        }
        source.offset += length
        return length
    }
}
