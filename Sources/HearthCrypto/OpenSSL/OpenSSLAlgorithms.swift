import COpenSSL

/// Owns one `EVP_MD` fetched from the default provider.
///
/// OpenSSL 3 fetches an algorithm implementation on every call of the convenience functions (`EVP_sha256()`
/// paths), which takes a lock in the library context and contends across threads (openssl/openssl#17064,
/// #20286). Fetching once and passing the object explicitly avoids that.
///
/// `@unchecked Sendable`: a fetched `EVP_MD` is immutable and reference-counted with atomics; OpenSSL
/// documents sharing it between threads as safe.
final class MessageDigest: @unchecked Sendable {
    let pointer: OpaquePointer

    /// SHA-256, fetched on first use (Swift initialises `static let` exactly once, thread-safely).
    static let sha256 = MessageDigest(fetching: "SHA256")

    private init(fetching name: String) {
        guard let pointer = EVP_MD_fetch(nil, name, nil) else {
            preconditionFailure("OpenSSL cannot provide \(name): \(OpenSSLErrorQueue.drain() ?? "no detail")")
        }
        self.pointer = pointer
    }

    deinit {
        EVP_MD_free(pointer)
    }
}

/// Owns the `EVP_MAC` for HMAC and a keyless `EVP_MAC_CTX` template already bound to SHA-256.
///
/// Setting the `digest` parameter on a fresh context makes the provider fetch SHA-256 by name each time;
/// duplicating a template that already holds the fetched digest does not.
///
/// `@unchecked Sendable`: the algorithm and the template are never mutated after `init`; the template is only
/// ever read by `EVP_MAC_CTX_dup`, and every call works on its own duplicate.
final class HMACSHA256Algorithm: @unchecked Sendable {
    private let mac: OpaquePointer
    private let template: OpaquePointer

    static let shared = HMACSHA256Algorithm()

    private init() {
        guard let mac = EVP_MAC_fetch(nil, OSSL_MAC_NAME_HMAC, nil),
            let template = EVP_MAC_CTX_new(mac)
        else {
            preconditionFailure("OpenSSL cannot provide HMAC: \(OpenSSLErrorQueue.drain() ?? "no detail")")
        }
        let configured = OSSL_DIGEST_NAME_SHA2_256.withCString { digestName in
            OSSL_MAC_PARAM_DIGEST.withCString { key in
                var parameters = [
                    OSSL_PARAM_construct_utf8_string(key, UnsafeMutablePointer(mutating: digestName), 0),
                    OSSL_PARAM_construct_end(),
                ]
                return EVP_MAC_CTX_set_params(template, &parameters)
            }
        }
        precondition(configured == 1, "OpenSSL cannot bind HMAC to SHA-256: \(OpenSSLErrorQueue.drain() ?? "")")
        self.mac = mac
        self.template = template
    }

    deinit {
        EVP_MAC_CTX_free(template)
        EVP_MAC_free(mac)
    }

    /// A fresh context for one computation; the caller frees it with `EVP_MAC_CTX_free`.
    func makeContext() -> OpaquePointer {
        guard let context = EVP_MAC_CTX_dup(template) else {
            preconditionFailure("EVP_MAC_CTX_dup failed: \(OpenSSLErrorQueue.drain() ?? "out of memory")")
        }
        return context
    }
}

/// Owns one `EVP_CIPHER` fetched from the default provider (see `MessageDigest` for why).
///
/// `@unchecked Sendable`: a fetched `EVP_CIPHER` is immutable and safe to share between threads.
final class Cipher: @unchecked Sendable {
    let pointer: OpaquePointer

    static let aes256GCM = Cipher(fetching: "AES-256-GCM")

    private init(fetching name: String) {
        guard let pointer = EVP_CIPHER_fetch(nil, name, nil) else {
            preconditionFailure("OpenSSL cannot provide \(name): \(OpenSSLErrorQueue.drain() ?? "no detail")")
        }
        self.pointer = pointer
    }

    deinit {
        EVP_CIPHER_free(pointer)
    }
}
