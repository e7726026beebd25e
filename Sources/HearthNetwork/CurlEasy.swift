import CCurl
import HearthBase
import Synchronization

/// Owns one libcurl easy handle and frees it (with its header list) when released.
/// Used by one thread at a time; a handle is made per transfer.
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

    /// libcurl's global set-up, done once before the first handle (thread-safe since 7.84).
    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        BrokenPipes.ignore()  // libcurl leaves SIGPIPE alone with CURLOPT_NOSIGNAL; OpenSSL may raise it
    }()

    init() throws(NetworkError) {
        _ = Self.globalInit
        guard let handle = curl_easy_init() else { throw NetworkError(.transport, "curl_easy_init failed") }
        self.handle = handle
        // No signals from libcurl: it runs on worker threads of a multi-threaded server.
        CCurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        errorBuffer.withUnsafeMutableBufferPointer { buffer in
            _ = CCurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress)
        }
    }

    deinit {
        curl_easy_cleanup(handle)
        if let headerList { curl_slist_free_all(headerList) }
    }

    func set(_ option: CURLoption, _ value: Int) throws(NetworkError) {
        try check(CCurl_setopt_long(handle, option, value), "setting option \(option.rawValue)")
    }

    func set(_ option: CURLoption, _ value: String) throws(NetworkError) {
        try check(CCurl_setopt_string(handle, option, value), "setting option \(option.rawValue)")
    }

    /// Sets request headers (`Name: value` lines); the list lives as long as the handle.
    func setHeaders(_ lines: [String]) throws(NetworkError) {
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
        for line in lines { headerList = curl_slist_append(headerList, line) }
        try check(CCurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), "setting headers")
    }

    /// Runs the transfer.
    func perform() throws(NetworkError) {
        let code = curl_easy_perform(handle)
        guard code == CURLE_OK else {
            let detail = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            let summary = String(cString: curl_easy_strerror(code))
            throw NetworkError(
                code == CURLE_OPERATION_TIMEDOUT ? .timeout : .transport,
                detail.isEmpty ? summary : "\(summary): \(detail)"
            )
        }
    }

    func responseCode() -> Int {
        var code = 0
        CCurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// A text the transfer reported (`CURLINFO_CONTENT_TYPE`, `CURLINFO_REDIRECT_URL`), or
    /// `nil` when it has none.
    func info(_ item: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard CCurl_getinfo_string(handle, item, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    private func check(_ code: CURLcode, _ what: String) throws(NetworkError) {
        guard code == CURLE_OK else {
            throw NetworkError(.transport, "\(what): \(String(cString: curl_easy_strerror(code)))")
        }
    }
}
