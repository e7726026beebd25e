/// OpenSSL treats a NULL data pointer with length 0 inconsistently across functions; this hands it a valid
/// pointer for empty input.
@inline(__always)
func nonNullBase(_ buffer: UnsafeRawBufferPointer, _ body: (UnsafeRawPointer, Int) throws -> Int32) rethrows -> Int32 {
    if let base = buffer.baseAddress {
        return try body(base, buffer.count)
    }
    var empty: UInt8 = 0
    return try withUnsafeBytes(of: &empty) { try body($0.baseAddress!, 0) }
}
