import HearthBase

/// `withByteBuffer(of:_:)` for the C calls that take raw bytes.
@inline(__always)
func withContiguousBytes<R>(
    of bytes: some Collection<UInt8>,
    _ body: (UnsafeRawBufferPointer) throws -> R
) rethrows -> R {
    try withByteBuffer(of: bytes) { try body(UnsafeRawBufferPointer($0)) }
}
