import CZlib

/// Compresses `bytes` into the gzip format, for request bodies in tests.
func gzip(_ bytes: [UInt8]) -> [UInt8] {
    var stream = z_stream()
    // 31 = 15-bit window + 16 for the gzip wrapper. deflateInit2 is a macro; call its function.
    let initialised = deflateInit2_(
        &stream,
        Z_BEST_COMPRESSION,
        Z_DEFLATED,
        31,
        9,
        Z_DEFAULT_STRATEGY,
        ZLIB_VERSION,
        Int32(MemoryLayout<z_stream>.size)
    )
    precondition(initialised == Z_OK)
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 64)
    var input = bytes
    let produced = input.withUnsafeMutableBufferPointer { source in
        output.withUnsafeMutableBufferPointer { target in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            stream.next_out = target.baseAddress
            stream.avail_out = uInt(target.count)
            precondition(deflate(&stream, Z_FINISH) == Z_STREAM_END)
            return target.count - Int(stream.avail_out)
        }
    }
    return Array(output[..<produced])
}
