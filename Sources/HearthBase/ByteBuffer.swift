/// Runs `body` over the bytes of any collection as one buffer: in place when the storage is
/// contiguous (arrays, slices, the UTF-8 view of a native string), after one copy otherwise.
/// Byte scans over the buffer are plain loops, several times faster than stepping a view's
/// iterator.
@inlinable
public func withByteBuffer<R>(
    of bytes: some Collection<UInt8>,
    _ body: (UnsafeBufferPointer<UInt8>) throws -> R
) rethrows -> R {
    if let result = try bytes.withContiguousStorageIfAvailable(body) { return result }
    return try Array(bytes).withUnsafeBufferPointer(body)
}
