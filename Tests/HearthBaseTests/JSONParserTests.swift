import HearthBase
import Testing

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONValue.parse(Array(text.utf8))
    }

    private func reason(_ text: String) -> JSONParseError.Reason? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func parsesEveryKindOfValue() throws {
        let value = try parse(#" {"a": [1, -2.5, true, false, null, "x"], "b": {"c": {}} , "d": []} "#)
        #expect(value == ["a": [1, -2.5, true, false, .null, "x"], "b": ["c": [:]], "d": []])
    }

    @Test func parsesScalarsAtTopLevel() throws {
        #expect(try parse("42") == .int(42))
        #expect(try parse("\"hi\"") == .string("hi"))
        #expect(try parse(" null ") == .null)
        #expect(try parse("true") == .bool(true))
    }

    @Test func keepsObjectMemberOrder() throws {
        let value = try parse(#"{"z":1,"a":2,"m":3}"#)
        #expect(value.objectValue?.keys == ["z", "a", "m"])
    }

    @Test func keepsInt64Exact() throws {
        #expect(try parse("9223372036854775807") == .int(.max))
        #expect(try parse("-9223372036854775808") == .int(.min))
        #expect(try parse("1234567890123456789") == .int(1_234_567_890_123_456_789))
        #expect(try parse("-0") == .int(0))
    }

    @Test func turnsIntegersBeyondInt64IntoDoubles() throws {
        #expect(try parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try parse("-9223372036854775809") == .double(-9_223_372_036_854_775_808.0))
        #expect(try parse("123456789012345678901234567890") == .double(1.2345678901234568e29))
    }

    @Test func parsesFractionsAndExponents() throws {
        #expect(try parse("0.5") == .double(0.5))
        #expect(try parse("1E3") == .double(1000))
        #expect(try parse("-1.25e-2") == .double(-0.0125))
        #expect(try parse("1e+2") == .double(100))
        #expect(try parse("1e-400") == .double(0))
    }

    @Test func rejectsNumbersOutsideTheGrammar() {
        for text in [
            "01", "-01", "1.", ".5", "-", "+1", "1e", "1e+", "0x10", "1.e5", "--1", "NaN", "Infinity", "-Infinity",
        ] {
            let reason = reason(text)
            #expect(reason != nil, "\(text) was accepted")
        }
        #expect(reason("01") == .invalidNumber)
        #expect(reason("1.") == .unexpectedEnd)
        #expect(reason("[1.]") == .invalidNumber)
    }

    @Test func rejectsNumbersTooLargeForDouble() {
        #expect(reason("1e400") == .numberOutOfRange)
        #expect(reason("-1e400") == .numberOutOfRange)
    }

    @Test func decodesEscapes() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u0041\u00e9\u20AC""#) == .string("Aé€"))
        #expect(try parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try parse(#""\u0000""#) == .string("\u{0}"))
        #expect(try parse(#""plain é then \n""#) == .string("plain é then \n"))
    }

    @Test func rejectsInvalidEscapes() {
        #expect(reason(#""\x41""#) == .invalidEscape)
        #expect(reason(#""\u12G4""#) == .invalidEscape)
        #expect(reason(#""\'""#) == .invalidEscape)
        #expect(reason(#""\u12""#) == .unexpectedEnd)
    }

    @Test func rejectsLoneSurrogates() {
        #expect(reason(#""\ud800""#) == .loneSurrogate)
        #expect(reason(#""\ud800x""#) == .loneSurrogate)
        #expect(reason(#""\udc00""#) == .loneSurrogate)
        #expect(reason(#""\ud800\u0041""#) == .loneSurrogate)
        #expect(reason(#""\ud800\ud800""#) == .loneSurrogate)
    }

    @Test func rejectsRawControlCharactersInStrings() {
        #expect(reason("\"a\nb\"") == .controlCharacterInString)
        #expect(reason("\"a\u{1}b\"") == .controlCharacterInString)
        #expect(reason("\"a\\\"\tb\"") == .controlCharacterInString)
    }

    @Test func acceptsValidUTF8AndRejectsInvalidUTF8() throws {
        let valid: [UInt8] = [0x22, 0xE2, 0x82, 0xAC, 0x22]  // "€"
        #expect(try JSONValue.parse(valid) == .string("€"))
        let invalidSequences: [[UInt8]] = [
            [0x22, 0xFF, 0x22],  // never valid
            [0x22, 0xC0, 0xAF, 0x22],  // overlong "/"
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // encoded surrogate
            [0x22, 0xE2, 0x82, 0x22],  // truncated
            [0x22, 0x5C, 0x6E, 0xFF, 0x22],  // after an escape
        ]
        for bytes in invalidSequences {
            #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes) }
            #expect((try? JSONValue.parse(bytes)) == nil)
        }
        do {
            _ = try JSONValue.parse(invalidSequences[0])
        } catch {
            #expect(error.reason == .invalidUTF8)
        }
    }

    @Test func findsSpecialBytesAtEveryOffsetOfALongString() throws {
        // The string scanner reads eight bytes at a time; put each special byte at every offset.
        for offset in 0..<24 {
            let prefix = String(repeating: "a", count: offset)
            let suffix = String(repeating: "b", count: 24 - offset)
            #expect(try parse("\"\(prefix)\\n\(suffix)\"") == .string(prefix + "\n" + suffix))
            #expect(try parse("\"\(prefix)é\(suffix)\"") == .string(prefix + "é" + suffix))
            #expect(try parse("[\"\(prefix)\",\"\(suffix)\"]") == [.string(prefix), .string(suffix)])
            #expect(reason("\"\(prefix)\u{1}\(suffix)\"") == .controlCharacterInString)
            #expect(reason("\"\(prefix)\u{7F}\(suffix)") == .unexpectedEnd)
            let invalid = Array("\"\(prefix)".utf8) + [0xC3] + Array("\(suffix)\"".utf8)
            #expect((try? JSONValue.parse(invalid)) == nil)
        }
    }

    @Test func rejectsTrailingCommasAndMissingSeparators() {
        #expect(reason("[1,]") == .unexpectedByte(UInt8(ascii: "]")))
        #expect(reason(#"{"a":1,}"#) == .unexpectedByte(UInt8(ascii: "}")))
        #expect(reason("[1 2]") == .unexpectedByte(UInt8(ascii: "2")))
        #expect(reason(#"{"a" 1}"#) == .unexpectedByte(UInt8(ascii: "1")))
        #expect(reason(#"{a:1}"#) == .unexpectedByte(UInt8(ascii: "a")))
        #expect(reason("[,1]") == .unexpectedByte(UInt8(ascii: ",")))
    }

    @Test func rejectsTrailingData() {
        #expect(reason("{} x") == .trailingData)
        #expect(reason("1 2") == .trailingData)
        #expect(reason("[]]") == .trailingData)
    }

    @Test func rejectsEmptyAndTruncatedInput() {
        #expect(reason("") == .unexpectedEnd)
        #expect(reason("   ") == .unexpectedEnd)
        #expect(reason("[1") == .unexpectedEnd)
        #expect(reason(#"{"a":"#) == .unexpectedEnd)
        #expect(reason(#""abc"#) == .unexpectedEnd)
        #expect(reason("tru") == .unexpectedEnd)
        #expect(reason("nul") == .unexpectedEnd)
        #expect(reason("trUe") == .unexpectedByte(UInt8(ascii: "U")))
    }

    @Test func rejectsNonJSONWhitespace() {
        #expect(reason("\u{0B}1") != nil)
        #expect(reason("\u{A0}1") != nil)
        #expect(reason("\u{FEFF}1") != nil)
    }

    @Test func limitsNestingDepth() throws {
        let deepest =
            String(repeating: "[", count: JSONValue.maximumDepth)
            + String(repeating: "]", count: JSONValue.maximumDepth)
        #expect(throws: Never.self) { try parse(deepest) }
        let tooDeep =
            String(repeating: "[", count: JSONValue.maximumDepth + 1)
            + String(repeating: "]", count: JSONValue.maximumDepth + 1)
        #expect(reason(tooDeep) == .tooDeep)
        // Far deeper input must fail cleanly, not overflow the stack.
        #expect(reason(String(repeating: "[", count: 100_000)) == .tooDeep)
        #expect(reason(String(repeating: #"{"a":"#, count: 100_000)) == .tooDeep)
    }

    @Test func rejectsDuplicateKeysInSmallAndLargeObjects() {
        #expect(reason(#"{"a":1,"a":2}"#) == .duplicateKey("a"))
        let members = (0..<40).map { "\"k\($0)\":\($0)" }
        #expect(reason("{" + (members + ["\"k3\":0"]).joined(separator: ",") + "}") == .duplicateKey("k3"))
        #expect(reason("{" + (members + ["\"k39\":0"]).joined(separator: ",") + "}") == .duplicateKey("k39"))
        #expect(reason("{" + members.joined(separator: ",") + "}") == nil)
    }

    @Test func reportsTheOffsetOfTheProblem() {
        do {
            _ = try parse(#"{"a": tru}"#)
            Issue.record("accepted")
        } catch {
            #expect(error.offset == 9)
            #expect(error.description == "Unexpected token '}' at byte 9.")
        }
    }

    @Test func parsesFromAnyCollectionOfBytes() throws {
        let text = #"{"a":[1,2]}"#
        #expect(try JSONValue.parse(text.utf8) == ["a": [1, 2]])
        #expect(try JSONValue.parse(Array(text.utf8)[...]) == ["a": [1, 2]])
        #expect(try JSONValue.parse(Array(text.utf8).lazy.map { $0 }) == ["a": [1, 2]])
    }
}
