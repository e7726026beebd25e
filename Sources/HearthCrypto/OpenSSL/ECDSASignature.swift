import COpenSSL

/// Converts P-256 ECDSA signatures between OpenSSL's DER (`SEQUENCE { INTEGER r, INTEGER s }`) and the JWS
/// form (RFC 7518 §3.4): exactly 64 bytes, `r ‖ s`, each big-endian and left-padded to 32 bytes.
///
/// About 1 in 128 signatures has an `r` or `s` shorter than 32 bytes; forgetting the padding is the classic
/// ES256 bug (vapor/jwt#103, lestrrat-go/jwx#52), hence `BN_bn2binpad` and no hand-written DER.
enum ECDSASignature {
    static let coordinateByteCount = 32
    static let rawByteCount = 64
    /// A DER P-256 signature is at most 2 + 2 × (2 + 33) = 72 bytes.
    static let maximumDERByteCount = 72

    /// The order n of the P-256 group, big-endian; valid `r` and `s` lie in [1, n − 1].
    private static let groupOrder: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    /// Converts DER to raw `r ‖ s`, writing 64 bytes into `output`.
    /// - Returns: `false` if the DER is malformed, has trailing bytes, or holds a number wider than 32 bytes.
    static func raw(fromDER der: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Bool {
        precondition(output.count >= rawByteCount)
        guard let base = der.baseAddress else { return false }
        var cursor: UnsafePointer<UInt8>? = base.assumingMemoryBound(to: UInt8.self)
        guard let signature = d2i_ECDSA_SIG(nil, &cursor, der.count) else {
            OpenSSLErrorQueue.clear()
            return false
        }
        defer { ECDSA_SIG_free(signature) }
        guard let end = cursor, UnsafeRawPointer(end) == base + der.count else { return false }
        var r: OpaquePointer? = nil
        var s: OpaquePointer? = nil
        ECDSA_SIG_get0(signature, &r, &s)
        let out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        // BN_bn2binpad left-pads with zeros and returns -1 when the number does not fit.
        return BN_bn2binpad(r, out, Int32(coordinateByteCount)) == coordinateByteCount
            && BN_bn2binpad(s, out + coordinateByteCount, Int32(coordinateByteCount)) == coordinateByteCount
    }

    /// Converts raw `r ‖ s` to DER and hands it to `body`, or returns `nil` when the input is not 64 bytes or
    /// `r` or `s` lies outside [1, n − 1] (such a signature can never verify, and rejecting it early keeps
    /// malformed input away from the C library).
    static func withDER<R>(fromRaw raw: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
        guard raw.count == rawByteCount else { return nil }
        let r = UnsafeRawBufferPointer(rebasing: raw[0..<coordinateByteCount])
        let s = UnsafeRawBufferPointer(rebasing: raw[coordinateByteCount...])
        guard isValidScalar(r), isValidScalar(s) else { return nil }

        guard let rNumber = BN_bin2bn(r.baseAddress, Int32(coordinateByteCount), nil) else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        guard let sNumber = BN_bin2bn(s.baseAddress, Int32(coordinateByteCount), nil) else {
            BN_free(rNumber)
            OpenSSLErrorQueue.clear()
            return nil
        }
        guard let signature = ECDSA_SIG_new() else {
            BN_free(rNumber)
            BN_free(sNumber)
            OpenSSLErrorQueue.clear()
            return nil
        }
        defer { ECDSA_SIG_free(signature) }
        // ECDSA_SIG_set0 takes ownership of both numbers only when it succeeds.
        guard ECDSA_SIG_set0(signature, rNumber, sNumber) == 1 else {
            BN_free(rNumber)
            BN_free(sNumber)
            OpenSSLErrorQueue.clear()
            return nil
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumDERByteCount) { buffer -> R? in
            guard i2d_ECDSA_SIG(signature, nil) <= maximumDERByteCount else { return nil }
            var cursor = buffer.baseAddress
            let length = i2d_ECDSA_SIG(signature, &cursor)
            guard length > 0 else {
                OpenSSLErrorQueue.clear()
                return nil
            }
            return body(UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[0..<Int(length)]))
        }
    }

    /// Whether a 32-byte big-endian number lies in [1, n − 1]. Signatures are public, so this need not be
    /// constant-time.
    private static func isValidScalar(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.contains(where: { $0 != 0 }) else { return false }
        for (byte, limit) in zip(bytes, groupOrder) where byte != limit {
            return byte < limit
        }
        return false  // equal to n
    }
}
