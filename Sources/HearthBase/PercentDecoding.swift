/// Percent-decoding as the WHATWG URL standard does it: `%XX` becomes the byte, a `%` not
/// followed by two hex digits stays as it is, and bytes that are not valid UTF-8 after decoding
/// become U+FFFD. Lenient on purpose: a malformed escape in a path or form should lead to a
/// "not found" or a validation error further on, not to a different parse.
public enum PercentDecoding {
    public static func decode(_ text: Substring, plusAsSpace: Bool) -> String {
        let needsWork = text.utf8.contains { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }
        guard needsWork else { return String(text) }
        return decode(bytes: text.utf8, plusAsSpace: plusAsSpace)
    }

    public static func decode(bytes: some Collection<UInt8>, plusAsSpace: Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                let first = bytes.index(after: index)
                if first != bytes.endIndex, bytes.index(after: first) != bytes.endIndex,
                    let high = hexValue(bytes[first]), let low = hexValue(bytes[bytes.index(after: first)])
                {
                    output.append(high << 4 | low)
                    index = bytes.index(index, offsetBy: 3)
                    continue
                }
                output.append(byte)
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                output.append(UInt8(ascii: " "))
            } else {
                output.append(byte)
            }
            index = bytes.index(after: index)
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
