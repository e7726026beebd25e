/// Lower-case hexadecimal (base16), for digests in logs, fixtures and storage keys.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Encodes bytes as lower-case hex, two characters per byte.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        func encode(_ buffer: UnsafeBufferPointer<UInt8>) -> String {
            digits.withUnsafeBufferPointer { digits in
                String(unsafeUninitializedCapacity: buffer.count * 2) { output in
                    for (index, byte) in buffer.enumerated() {
                        output[2 * index] = digits[Int(byte >> 4)]
                        output[2 * index + 1] = digits[Int(byte & 0x0F)]
                    }
                    return buffer.count * 2
                }
            }
        }
        if let string = bytes.withContiguousStorageIfAvailable(encode) {
            return string
        }
        return Array(bytes).withUnsafeBufferPointer(encode)
    }

    /// Decodes hex in either case.
    /// - Returns: `nil` for an odd length or any character that is not a hex digit.
    public static func decode(_ string: some StringProtocol) -> [UInt8]? {
        let utf8 = string.utf8
        guard utf8.count % 2 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count / 2)
        var high: UInt8? = nil
        for character in utf8 {
            guard let value = nibble(character) else { return nil }
            if let pending = high {
                output.append(pending << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return output
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
