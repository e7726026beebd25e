import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG, which the OS entropy source seeds and reseeds.
public enum SecureRandom {
    /// Returns `count` random bytes.
    ///
    /// Failure means the process has no working entropy source, which no caller can recover from, so it stops
    /// the process instead of returning weak bytes.
    public static func bytes(count: Int) -> [UInt8] {
        precondition(count >= 0, "SecureRandom.bytes(count:) needs a non-negative count")
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            fill(UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
    }

    /// Fills `buffer` with random bytes (see `bytes(count:)` for the failure policy).
    static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        var offset = 0
        while offset < buffer.count {
            let chunk = min(buffer.count - offset, Int(Int32.max))
            let status = RAND_bytes(buffer.baseAddress! + offset, Int32(chunk))
            precondition(status == 1, "RAND_bytes failed: \(OpenSSLErrorQueue.drain() ?? "no detail")")
            offset += chunk
        }
    }
}
