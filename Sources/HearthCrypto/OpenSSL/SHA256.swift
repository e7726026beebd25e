import COpenSSL

/// SHA-256 (FIPS 180-4).
public enum SHA256 {
    /// The digest length in bytes.
    public static let byteCount = 32

    /// Returns the 32-byte digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        withContiguousBytes(of: bytes) { input in
            [UInt8](unsafeUninitializedCapacity: byteCount) { output, initialized in
                var length: UInt32 = 0
                let status = nonNullBase(input) { base, count in
                    EVP_Digest(base, count, output.baseAddress, &length, MessageDigest.sha256.pointer, nil)
                }
                precondition(
                    status == 1 && length == byteCount,
                    "EVP_Digest(SHA-256) failed: \(OpenSSLErrorQueue.drain() ?? "no detail")"
                )
                initialized = byteCount
            }
        }
    }
}
