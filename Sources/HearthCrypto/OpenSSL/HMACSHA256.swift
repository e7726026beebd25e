import COpenSSL

/// HMAC with SHA-256 (RFC 2104), through a pre-fetched `EVP_MAC` (never the one-shot `HMAC()`, which can
/// write into a shared static buffer).
public enum HMACSHA256 {
    /// The tag length in bytes.
    public static let byteCount = 32

    /// Returns the 32-byte authentication code of `message` under `key`. Compare tags with
    /// `constantTimeEquals`, never `==`.
    public static func authenticationCode(key: [UInt8], message: some Collection<UInt8>) -> [UInt8] {
        let context = HMACSHA256Algorithm.shared.makeContext()
        defer { EVP_MAC_CTX_free(context) }
        return withContiguousBytes(of: message) { message in
            key.withUnsafeBytes { key in
                [UInt8](unsafeUninitializedCapacity: byteCount) { output, initialized in
                    var length = 0
                    // An empty key is legal HMAC (it is zero-padded to the block size) but needs a non-NULL pointer.
                    let status =
                        nonNullBase(key) { EVP_MAC_init(context, $0, $1, nil) } == 1
                        && nonNullBase(message) { EVP_MAC_update(context, $0, $1) } == 1
                        && EVP_MAC_final(context, output.baseAddress, &length, byteCount) == 1
                    precondition(
                        status && length == byteCount,
                        "HMAC-SHA256 failed: \(OpenSSLErrorQueue.drain() ?? "no detail")"
                    )
                    initialized = byteCount
                }
            }
        }
    }
}
