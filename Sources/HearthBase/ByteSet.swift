/// A set of bytes as a 256-bit mask: membership is two shifts and a mask, with no hashing,
/// for the byte-by-byte scans of parsers and encoders.
public struct ByteSet: Sendable, Equatable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    public init<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        for byte in bytes { insert(byte) }
    }

    public mutating func insert(_ byte: UInt8) {
        let bit = UInt64(1) << (byte & 63)
        switch byte >> 6 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    @inline(__always)
    public func contains(_ byte: UInt8) -> Bool {
        let word =
            switch byte >> 6 {
            case 0: words.0
            case 1: words.1
            case 2: words.2
            default: words.3
            }
        return word & (UInt64(1) << (byte & 63)) != 0
    }

    public static func == (lhs: ByteSet, rhs: ByteSet) -> Bool {
        lhs.words == rhs.words
    }
}
