import COpenSSL

/// SHA-256 (FIPS 180-4).
public enum SHA256 {
    /// The digest length in bytes.
    public static let byteCount = 32

    /// Returns the 32-byte digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        withContiguousBytes(of: bytes, digest)
    }

    /// Returns the 32-byte digest of `bytes`. Not generic, so callers in other modules (the token
    /// paths hash on every request) call it directly instead of through generic metadata.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes(digest)
    }

    /// Returns the 32-byte digest of the UTF-8 encoding of `text`.
    public static func hash(utf8Of text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { digest(UnsafeRawBufferPointer($0)) }
    }

    private static func digest(_ input: UnsafeRawBufferPointer) -> [UInt8] {
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
