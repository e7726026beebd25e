import Testing

@testable import HearthBase

@Suite struct ByteScanningTests {
    @Test func aByteSetHoldsExactlyItsMembersInEveryQuarter() {
        let members: [UInt8] = [0, 1, 63, 64, 65, 127, 128, 191, 192, 255, UInt8(ascii: "%")]
        let set = ByteSet(members)
        for byte in UInt8.min...UInt8.max {
            #expect(set.contains(byte) == members.contains(byte), "byte \(byte)")
        }
        #expect(ByteSet("ab".utf8) == ByteSet("ba".utf8))
        #expect(ByteSet("ab".utf8) != ByteSet("abc".utf8))
    }

    @Test func asciiLowercasingChangesCapitalLettersOnly() {
        for byte in UInt8.min...UInt8.max {
            let expected = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
            #expect(ASCII.lowercased(byte) == expected, "byte \(byte)")
        }
    }

    @Test func controlCharactersAreC0DeleteAndC1Only() {
        for scalar in ["\u{0}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\r\n"] {
            #expect(ControlCharacters.occur(in: "a\(scalar)b"), "\(scalar.debugDescription)")
        }
        // U+00A0 (0xC2 0xA0) and U+0100 (0xC4 0x80) share bytes with C1 controls but are not.
        for text in ["plain", "\u{A0}", "\u{100}", "é", "日本", "👍🏽", ""] {
            #expect(!ControlCharacters.occur(in: text), "\(text.debugDescription)")
        }
    }

    @Test func visibleASCIIIsExactlyTheSpaceToTheTilde() {
        for byte in UInt8.min...UInt8.max {
            let bytes = [UInt8(ascii: "a"), byte, UInt8(ascii: "b")]
            bytes.withUnsafeBufferPointer { buffer in
                #expect(ControlCharacters.areVisibleASCII(buffer) == (0x20...0x7E).contains(byte), "byte \(byte)")
            }
        }
        // Long enough for vector code, with the odd byte last.
        let long = Array(repeating: UInt8(ascii: "x"), count: 100) + [0x7F]
        long.withUnsafeBufferPointer { #expect(!ControlCharacters.areVisibleASCII($0)) }
        long.dropLast().withUnsafeBufferPointer { #expect(ControlCharacters.areVisibleASCII($0)) }
        #expect(ControlCharacters.occur(inBytes: long) && !ControlCharacters.occur(inBytes: long.dropLast()))
    }

    @Test func trimmingRemovesOnlyASCIIWhitespaceAtTheEnds() {
        #expect(" \t\r\n a b \r\n".trimmingASCIIWhitespace() == "a b")
        #expect("a".trimmingASCIIWhitespace() == "a")
        #expect(" \n ".trimmingASCIIWhitespace() == "")
        #expect("".trimmingASCIIWhitespace() == "")
        #expect("\u{A0}é\u{3000}".trimmingASCIIWhitespace() == "\u{A0}é\u{3000}")
        #expect("  x ".dropFirst().trimmingASCIIWhitespace() == "x")
    }
}
