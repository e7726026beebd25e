import CZlib

/// Owns one zlib inflate stream configured for the gzip wrapper, and inflates request bodies
/// with a cap on the output, so a small "gzip bomb" cannot make the server allocate gigabytes.
final class GzipInflater {
    enum Outcome {
        case inflated
        /// The output would pass the limit; nothing past the limit was kept.
        case limitExceeded
        /// Not a gzip stream, or a damaged one.
        case corrupt
    }

    private let stream: UnsafeMutablePointer<z_stream>
    /// Whether the last member's end (and checksum) has been read.
    private(set) var atEndOfStream = false
    private var initialised: Bool

    init() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 16 + 15: gzip wrapper, 32 KiB window.
        initialised = CZlib_inflateInit2(stream, 16 + 15) == Z_OK
    }

    deinit {
        if initialised { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates `input`, appending to `output` while `output` stays within `limit` bytes.
    /// Concatenated gzip members (RFC 1952 §2.2) are inflated one after another.
    func inflate(_ input: UnsafeRawBufferPointer, into output: inout [UInt8], limit: Int) -> Outcome {
        guard initialised else { return .corrupt }
        guard let base = input.baseAddress, input.count > 0 else { return .inflated }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        while stream.pointee.avail_in > 0 {
            if atEndOfStream {
                guard inflateReset(stream) == Z_OK else { return .corrupt }
                atEndOfStream = false
            }
            // One byte more than the room left reveals an overflow without keeping it.
            let chunk = min(16 * 1024, limit - output.count + 1)
            let result: (status: Int32, produced: Int, kept: Bool) = withUnsafeTemporaryAllocation(
                of: UInt8.self,
                capacity: chunk
            ) { scratch in
                stream.pointee.next_out = scratch.baseAddress
                stream.pointee.avail_out = uInt(chunk)
                let status = CZlib.inflate(stream, Z_NO_FLUSH)
                let produced = chunk - Int(stream.pointee.avail_out)
                stream.pointee.next_out = nil
                stream.pointee.avail_out = 0
                guard output.count + produced <= limit else { return (status, produced, false) }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<produced]))
                return (status, produced, true)
            }
            guard result.kept else { return .limitExceeded }
            switch result.status {
            case Z_OK: continue
            case Z_STREAM_END: atEndOfStream = true
            case Z_BUF_ERROR where result.produced > 0: continue
            default: return .corrupt
            }
        }
        return .inflated
    }
}
