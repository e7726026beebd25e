import COpenSSL
import Synchronization

/// Owns an `EVP_PKEY_CTX` that is initialised once for SHA-256 signing or verification with one key; every
/// operation works on a duplicate of it and signs or verifies a digest computed with the pre-fetched SHA-256.
///
/// Why not `EVP_DigestSignInit` per call: in OpenSSL 3.0 it builds a fresh context and fetches the signature
/// algorithm and the digest by name every time, about 10 µs of a ~45 µs P-256 signature on the CI box
/// (measured). `EVP_PKEY_CTX_dup` copies the already-resolved state instead.
///
/// `@unchecked Sendable`: kept contexts are handed to one operation at a time through the
/// `idle` lock; the template is never used directly after `init`, only read by
/// `EVP_PKEY_CTX_dup` (which copies it and takes atomic references); each call owns its duplicate.
final class SHA256SignatureContext: @unchecked Sendable {
    enum Purpose {
        case sign, verify
    }

    private let template: OpaquePointer
    /// The largest signature the key produces (72 for P-256 DER, the modulus length for RSA).
    let maximumSignatureSize: Int
    /// Initialised contexts ready for another operation. A duplicate of the template is cheap
    /// to make but slow on its first use (OpenSSL finishes its set-up lazily, about 6 µs of a
    /// P-256 signature), so contexts are kept and reused — each by one thread at a time.
    private let idle = Mutex<[UInt]>([])  // context addresses
    private static let maximumIdle = 32

    /// Prepares `key` for `purpose`. The key must already be validated (a private key for `.sign`); failure
    /// here means a broken library, so it stops the process.
    init(key: EVPKey, purpose: Purpose) {
        guard let template = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else {
            preconditionFailure("EVP_PKEY_CTX_new_from_pkey failed: \(OpenSSLErrorQueue.drain() ?? "no detail")")
        }
        let initialised =
            switch purpose {
            case .sign: EVP_PKEY_sign_init(template)
            case .verify: EVP_PKEY_verify_init(template)
            }
        guard initialised == 1, EVP_PKEY_CTX_set_signature_md(template, MessageDigest.sha256.pointer) == 1 else {
            let detail = OpenSSLErrorQueue.drain() ?? "no detail"
            EVP_PKEY_CTX_free(template)
            preconditionFailure("cannot prepare key for SHA-256 \(purpose): \(detail)")
        }
        self.template = template
        self.maximumSignatureSize = key.maximumSignatureSize
    }

    deinit {
        EVP_PKEY_CTX_free(template)
        for address in idle.withLock({ $0 }) { EVP_PKEY_CTX_free(OpaquePointer(bitPattern: address)) }
    }

    /// A context for one operation: a kept one, or a new duplicate of the template.
    private func borrowContext() -> OpaquePointer? {
        if let kept = idle.withLock({ $0.popLast() }) { return OpaquePointer(bitPattern: kept) }
        return EVP_PKEY_CTX_dup(template)
    }

    /// Keeps `context` for a later operation (or frees it when enough are kept).
    private func returnContext(_ context: OpaquePointer) {
        let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(context)))
        let kept = idle.withLock { idle in
            guard idle.count < Self.maximumIdle else { return false }
            idle.append(address)
            return true
        }
        if !kept { EVP_PKEY_CTX_free(context) }
    }

    /// Signs SHA-256(`message`) and hands the signature (DER for ECDSA, raw for RSA) to `body` from a temporary
    /// buffer.
    func withSignature<R>(
        for message: UnsafeRawBufferPointer,
        operation: String,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        guard let context = borrowContext() else {
            throw CryptoError.openSSL(.libraryFailure, operation)
        }
        defer { returnContext(context) }
        let capacity = maximumSignatureSize
        return try Self.withDigest(of: message) { digest in
            try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { signature in
                var length = capacity
                guard EVP_PKEY_sign(context, signature.baseAddress, &length, digest.baseAddress, digest.count) == 1,
                    length <= capacity
                else {
                    throw CryptoError.openSSL(.libraryFailure, operation)
                }
                return try body(UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(signature)[0..<length]))
            }
        }
    }

    /// Whether `signature` (DER for ECDSA, raw for RSA) is valid for SHA-256(`message`). Any failure, including
    /// a malformed signature, is `false`, and the error queue is left empty.
    func isValidSignature(_ signature: UnsafeRawBufferPointer, for message: UnsafeRawBufferPointer) -> Bool {
        guard let signatureBase = signature.baseAddress, let context = borrowContext() else {
            OpenSSLErrorQueue.clear()
            return false
        }
        defer { returnContext(context) }
        let status = Self.withDigest(of: message) { digest in
            EVP_PKEY_verify(
                context,
                signatureBase.assumingMemoryBound(to: UInt8.self),
                signature.count,
                digest.baseAddress,
                digest.count
            )
        }
        if status != 1 { OpenSSLErrorQueue.clear() }
        return status == 1
    }

    /// SHA-256 of `message` in a stack buffer.
    static func withDigest<R>(
        of message: UnsafeRawBufferPointer,
        _ body: (UnsafeBufferPointer<UInt8>) throws -> R
    ) rethrows -> R {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SHA256.byteCount) { digest in
            var length: UInt32 = 0
            let status = nonNullBase(message) { base, count in
                EVP_Digest(base, count, digest.baseAddress, &length, MessageDigest.sha256.pointer, nil)
            }
            precondition(
                status == 1 && length == SHA256.byteCount,
                "EVP_Digest(SHA-256) failed: \(OpenSSLErrorQueue.drain() ?? "no detail")"
            )
            return try body(UnsafeBufferPointer(digest))
        }
    }
}
