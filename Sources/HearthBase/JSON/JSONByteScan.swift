/// Finding the bytes of a JSON string that end or escape it, eight at a time (SWAR): the
/// parser and the writer spend most of their time scanning string contents.
enum JSONByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether any of the eight bytes in `word` is `"`, `\` or a control character (below
    /// 0x20). May report a false positive next to a real hit, never a false negative.
    @inline(__always)
    static func containsSpecialByte(_ word: UInt64) -> Bool {
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
        return special & highBits != 0
    }

    /// The offset of the first eight-byte block from `start` that may hold a special byte
    /// (or of the last, shorter block); everything before it is plain. `plainHighBits`
    /// collects the skipped bytes' high bits (non-zero if any was not ASCII).
    @inline(__always)
    static func skipPlainBlocks(
        _ base: UnsafePointer<UInt8>,
        from start: Int,
        to end: Int,
        plainHighBits: inout UInt64
    ) -> Int {
        var index = start
        while end - index >= 8 {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if containsSpecialByte(word) { break }
            plainHighBits |= word
            index += 8
        }
        return index
    }

    /// Splits `buffer` into runs that need no escaping (`plain`) and single bytes that do
    /// (`special`), in order.
    @inline(__always)
    static func forEachRun(
        in buffer: UnsafeBufferPointer<UInt8>,
        plain: (UnsafeBufferPointer<UInt8>) -> Void,
        special: (UInt8) -> Void
    ) {
        guard let base = buffer.baseAddress else { return }
        var ignored: UInt64 = 0
        var runStart = 0
        var index = skipPlainBlocks(base, from: 0, to: buffer.count, plainHighBits: &ignored)
        while index < buffer.count {
            let byte = base[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            if runStart < index { plain(UnsafeBufferPointer(start: base + runStart, count: index - runStart)) }
            special(byte)
            runStart = index + 1
            index = skipPlainBlocks(base, from: runStart, to: buffer.count, plainHighBits: &ignored)
        }
        if runStart < buffer.count {
            plain(UnsafeBufferPointer(start: base + runStart, count: buffer.count - runStart))
        }
    }
}
