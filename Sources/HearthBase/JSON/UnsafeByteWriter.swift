/// Writes bytes into memory the caller sized in advance — typically a stack buffer from
/// `withUnsafeTemporaryAllocation` — with plain stores instead of growable-array appends.
/// For hot paths that build short records (access-log lines); everything else should use
/// ``JSONWriter``.
///
/// The caller guarantees the capacity: ``JSONWriter/maximumEscapedSize(of:)`` bounds a quoted
/// string, 20 bytes an integer and 24 a timestamp. Writing past it is a programming error
/// (checked in debug builds).
public struct UnsafeByteWriter: ~Copyable {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    public private(set) var count = 0

    public init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// The bytes written so far.
    public var written: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: buffer[..<count])
    }

    public mutating func append(_ byte: UInt8) {
        assert(count < buffer.count)
        buffer[count] = byte
        count += 1
    }

    public mutating func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        assert(count + bytes.count <= buffer.count)
        guard let source = bytes.baseAddress else { return }
        (buffer.baseAddress! + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Decimal digits of `value`.
    public mutating func appendInteger(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var scale: UInt64 = 10
        while digits < 20 && magnitude >= scale {
            digits += 1
            scale = scale &* 10
        }
        assert(count + digits <= buffer.count)
        var position = count + digits
        repeat {
            position -= 1
            buffer[position] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude != 0
        count += digits
    }

    /// `text` as a quoted JSON string, escaped like ``JSONWriter`` does.
    public mutating func appendQuoted(_ text: String) {
        append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            JSONByteScan.forEachRun(in: utf8) {
                append($0)
            } special: { byte in
                JSONWriter.forEachEscapeByte(of: byte) { append($0) }
            }
        }
        append(UInt8(ascii: "\""))
    }

    /// `milliseconds` since the epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ` (24 bytes).
    public mutating func appendISO8601(milliseconds: Int64) {
        assert(count + 24 <= buffer.count)
        Timestamp.writeISO8601(
            milliseconds: milliseconds,
            to: UnsafeMutableBufferPointer(rebasing: buffer[count..<(count + 24)])
        )
        count += 24
    }
}
