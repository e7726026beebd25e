import COpenSSL

/// OpenSSL reports failures through a per-thread error queue. Every failure path drains it, so entries never
/// pile up on a long-lived worker thread or get blamed on a later, unrelated call.
enum OpenSSLErrorQueue {
    /// Removes every pending error on this thread and returns their texts joined by `"; "`, or `nil` when the
    /// queue was empty.
    static func drain() -> String? {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            let message = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer -> String in
                ERR_error_string_n(code, buffer.baseAddress, buffer.count)
                return String(cString: buffer.baseAddress!)
            }
            messages.append(message)
        }
        return messages.isEmpty ? nil : messages.joined(separator: "; ")
    }

    /// Discards pending errors after a failure that is reported as a plain `false` (signature verification).
    static func clear() {
        ERR_clear_error()
    }
}

extension CryptoError {
    /// An error whose detail is whatever OpenSSL queued on this thread (the queue is drained).
    static func openSSL(_ kind: Kind, _ operation: String) -> CryptoError {
        CryptoError(kind, operation: operation, detail: OpenSSLErrorQueue.drain())
    }
}
