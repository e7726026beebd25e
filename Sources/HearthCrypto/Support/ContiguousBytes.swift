/// Runs `body` over the bytes of any collection: in place when the storage is contiguous (arrays, slices,
/// `String.UTF8View` of native strings), after one copy otherwise.
@inline(__always)
func withContiguousBytes<R>(
    of bytes: some Collection<UInt8>,
    _ body: (UnsafeRawBufferPointer) throws -> R
) rethrows -> R {
    if let result = try bytes.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
        return result
    }
    return try Array(bytes).withUnsafeBytes(body)
}
