/// A set of bytes as a 256-bit mask: membership is a shift and a mask, with no hashing, for
/// the byte-by-byte scans of parsers and encoders. Inlinable, so a scan in another module
/// does not pay a call per byte.
@frozen
public struct ByteSet: Sendable, Equatable {
    /// Bytes 0–63, 64–127, 128–191 and 192–255, one bit each.
    @usableFromInline var word0: UInt64 = 0
    @usableFromInline var word1: UInt64 = 0
    @usableFromInline var word2: UInt64 = 0
    @usableFromInline var word3: UInt64 = 0

    @inlinable
    public init<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        for byte in bytes { insert(byte) }
    }

    @inlinable
    public mutating func insert(_ byte: UInt8) {
        let bit = UInt64(1) << (byte & 63)
        switch byte >> 6 {
        case 0: word0 |= bit
        case 1: word1 |= bit
        case 2: word2 |= bit
        default: word3 |= bit
        }
    }

    @inlinable
    public func contains(_ byte: UInt8) -> Bool {
        let word =
            switch byte >> 6 {
            case 0: word0
            case 1: word1
            case 2: word2
            default: word3
            }
        return word & (UInt64(1) << (byte & 63)) != 0
    }
}
