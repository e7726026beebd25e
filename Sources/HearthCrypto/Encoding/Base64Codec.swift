/// The engine behind `Base64` and `Base64URL` (RFC 4648 §4 and §5): table-driven, one pass, writing straight
/// into the destination buffer.
enum Base64Codec {
    /// Which of the two RFC 4648 alphabets to use.
    enum Alphabet {
        /// `A–Z a–z 0–9 + /`
        case standard
        /// `A–Z a–z 0–9 - _`
        case url

        fileprivate var encodeTable: [UInt8] {
            switch self {
            case .standard: Base64Codec.standardEncodeTable
            case .url: Base64Codec.urlEncodeTable
            }
        }

        fileprivate var decodeTable: [UInt8] {
            switch self {
            case .standard: Base64Codec.standardDecodeTable
            case .url: Base64Codec.urlDecodeTable
            }
        }
    }

    /// How `=` padding is treated when decoding.
    enum PaddingRule {
        /// Unpadded input only; any `=` is an invalid character.
        case forbidden
        /// Both unpadded input and exactly-right trailing padding are accepted.
        case optional
    }

    private static let standardEncodeTable = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8
    )
    private static let urlEncodeTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let invalid: UInt8 = 0xFF
    private static let standardDecodeTable = makeDecodeTable(standardEncodeTable)
    private static let urlDecodeTable = makeDecodeTable(urlEncodeTable)

    private static func makeDecodeTable(_ alphabet: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }

    /// The number of characters `encode` writes for `byteCount` input bytes.
    static func encodedLength(of byteCount: Int, padded: Bool) -> Int {
        padded ? (byteCount + 2) / 3 * 4 : (byteCount * 4 + 2) / 3
    }

    /// Encodes `input` into `output`, which must hold at least `encodedLength(of: input.count, padded:)` bytes.
    /// - Returns: The number of bytes written.
    @discardableResult
    static func encode(
        _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer,
        alphabet: Alphabet,
        padded: Bool
    ) -> Int {
        let count = input.count
        precondition(output.count >= encodedLength(of: count, padded: padded), "Base64 output buffer too small")
        return alphabet.encodeTable.withUnsafeBufferPointer { table in
            var i = 0
            var o = 0
            while i + 3 <= count {
                let chunk = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
                output[o] = table[Int(chunk >> 18)]
                output[o + 1] = table[Int((chunk >> 12) & 0x3F)]
                output[o + 2] = table[Int((chunk >> 6) & 0x3F)]
                output[o + 3] = table[Int(chunk & 0x3F)]
                i += 3
                o += 4
            }
            switch count - i {
            case 1:
                let chunk = UInt32(input[i]) << 16
                output[o] = table[Int(chunk >> 18)]
                output[o + 1] = table[Int((chunk >> 12) & 0x3F)]
                o += 2
                if padded {
                    output[o] = UInt8(ascii: "=")
                    output[o + 1] = UInt8(ascii: "=")
                    o += 2
                }
            case 2:
                let chunk = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8
                output[o] = table[Int(chunk >> 18)]
                output[o + 1] = table[Int((chunk >> 12) & 0x3F)]
                output[o + 2] = table[Int((chunk >> 6) & 0x3F)]
                o += 3
                if padded {
                    output[o] = UInt8(ascii: "=")
                    o += 1
                }
            default:
                break
            }
            return o
        }
    }

    /// Encodes any byte sequence into a new `String`, with a single allocation when the bytes are contiguous.
    static func encodeToString(_ bytes: some Sequence<UInt8>, alphabet: Alphabet, padded: Bool) -> String {
        func encode(_ buffer: UnsafeBufferPointer<UInt8>) -> String {
            let length = encodedLength(of: buffer.count, padded: padded)
            return String(unsafeUninitializedCapacity: length) { output in
                Base64Codec.encode(
                    UnsafeRawBufferPointer(buffer),
                    into: UnsafeMutableRawBufferPointer(output),
                    alphabet: alphabet,
                    padded: padded
                )
            }
        }
        if let string = bytes.withContiguousStorageIfAvailable(encode) {
            return string
        }
        return Array(bytes).withUnsafeBufferPointer(encode)
    }

    /// Decodes `input`, or returns `nil` for any character outside the alphabet, a length no encoder produces,
    /// wrong padding, or non-zero bits in the unused tail of the last character (RFC 4648 §3.5: a canonical
    /// encoding has one spelling only).
    static func decode(_ input: UnsafeBufferPointer<UInt8>, alphabet: Alphabet, padding: PaddingRule) -> [UInt8]? {
        var count = input.count
        if padding == .optional, count > 0, input[count - 1] == UInt8(ascii: "=") {
            // Padded input must be whole quads with one or two `=`.
            guard count % 4 == 0 else { return nil }
            count -= 1
            if input[count - 1] == UInt8(ascii: "=") {
                count -= 1
            }
            guard count % 4 != 0 else { return nil }
        }
        let remainder = count % 4
        guard remainder != 1 else { return nil }
        let outputCount = count / 4 * 3 + (remainder == 0 ? 0 : remainder - 1)
        return alphabet.decodeTable.withUnsafeBufferPointer { table -> [UInt8]? in
            var valid = true
            let output = [UInt8](unsafeUninitializedCapacity: outputCount) { output, initialized in
                var i = 0
                var o = 0
                var invalidBits: UInt8 = 0
                while i + 4 <= count {
                    let a = table[Int(input[i])]
                    let b = table[Int(input[i + 1])]
                    let c = table[Int(input[i + 2])]
                    let d = table[Int(input[i + 3])]
                    invalidBits |= a | b | c | d
                    let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    output[o] = UInt8(truncatingIfNeeded: chunk >> 16)
                    output[o + 1] = UInt8(truncatingIfNeeded: chunk >> 8)
                    output[o + 2] = UInt8(truncatingIfNeeded: chunk)
                    i += 4
                    o += 3
                }
                switch remainder {
                case 2:
                    let a = table[Int(input[i])]
                    let b = table[Int(input[i + 1])]
                    invalidBits |= a | b
                    // The low four bits of `b` carry no data and must be zero.
                    if b & 0x0F != 0 { invalidBits |= 0x80 }
                    output[o] = a << 2 | b >> 4
                    o += 1
                case 3:
                    let a = table[Int(input[i])]
                    let b = table[Int(input[i + 1])]
                    let c = table[Int(input[i + 2])]
                    invalidBits |= a | b | c
                    // The low two bits of `c` carry no data and must be zero.
                    if c & 0x03 != 0 { invalidBits |= 0x80 }
                    output[o] = a << 2 | b >> 4
                    output[o + 1] = b << 4 | c >> 2
                    o += 2
                default:
                    break
                }
                // Valid sextets are below 64; the invalid marker (0xFF) and the tail flag both set bit 7.
                valid = invalidBits & 0xC0 == 0
                initialized = o
            }
            return valid ? output : nil
        }
    }

    /// Decodes the UTF-8 of any string, without copying when the string is native.
    static func decode(_ string: some StringProtocol, alphabet: Alphabet, padding: PaddingRule) -> [UInt8]? {
        if let result = string.utf8.withContiguousStorageIfAvailable({
            decode($0, alphabet: alphabet, padding: padding)
        }) {
            return result
        }
        return Array(string.utf8).withUnsafeBufferPointer { decode($0, alphabet: alphabet, padding: padding) }
    }
}
