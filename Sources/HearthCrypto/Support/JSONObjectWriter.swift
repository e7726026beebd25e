/// Appends one flat JSON object of string members to a byte buffer, for the few fixed-shape documents this
/// module writes on hot paths (JWS headers, JWKs) where `JSONEncoder` would cost ~20× more.
struct JSONObjectWriter {
    private var output: [UInt8]
    private var isFirst = true

    /// Starts an object (writes `{`) in a buffer with room for `capacity` bytes.
    init(capacity: Int) {
        output = []
        output.reserveCapacity(capacity)
        output.append(UInt8(ascii: "{"))
    }

    /// Writes `"name":"value"`; does nothing when `value` is `nil`. `name` must need no escaping.
    mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        if !isFirst { output.append(UInt8(ascii: ",")) }
        isFirst = false
        output.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { output.append(contentsOf: $0) }
        output.append(contentsOf: #"":"#.utf8)
        Self.appendString(value, to: &output)
    }

    /// Closes the object and returns the buffer.
    mutating func finish() -> [UInt8] {
        output.append(UInt8(ascii: "}"))
        return output
    }

    /// Appends `value` as a JSON string literal (RFC 8259 §7): quotes, backslashes and control characters are
    /// escaped; everything else, including non-ASCII UTF-8 and `/`, is written as is.
    static func appendString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            case 0x00..<0x20:
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hexDigit(byte >> 4))
                output.append(hexDigit(byte & 0x0F))
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
