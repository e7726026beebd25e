import HearthBase
import Testing

@Suite struct JSONWriterTests {
    private func text(_ value: JSONValue) -> String {
        String(decoding: value.serialized(), as: UTF8.self)
    }

    @Test func writesCompactOutputInInsertionOrder() {
        let value: JSONValue = ["z": 1, "a": [true, .null, "x"], "m": ["n": -2]]
        #expect(text(value) == #"{"z":1,"a":[true,null,"x"],"m":{"n":-2}}"#)
    }

    @Test func escapesOnlyWhatRFC8259Requires() {
        #expect(text("a\"b\\c/d") == #""a\"b\\c/d""#)
        #expect(text("\n\r\t\u{8}\u{C}\u{0}\u{1F}") == #""\n\r\t\b\f\u0000\u001f""#)
        #expect(text("é€😀\u{7F}") == "\"é€😀\u{7F}\"")
        #expect(text("https://example.com/a?b=c") == #""https://example.com/a?b=c""#)
    }

    @Test func escapesSpecialBytesAtEveryOffset() throws {
        // The writer skips plain text eight bytes at a time; check every position.
        for offset in 0..<20 {
            for special in ["\"", "\\", "\n", "\u{1}", "é"] {
                let text = String(repeating: "a", count: offset) + special + String(repeating: "b", count: 19 - offset)
                let bytes = JSONValue.string(text).serialized()
                #expect(try JSONValue.parse(bytes) == .string(text))
                #expect(bytes.count == text.utf8.count + 2 + (special == "é" ? 0 : special == "\u{1}" ? 5 : 1))
            }
        }
    }

    @Test func writesIntegersExactly() {
        #expect(text(.int(.max)) == "9223372036854775807")
        #expect(text(.int(.min)) == "-9223372036854775808")
        #expect(text(.int(0)) == "0")
    }

    @Test func writesDoublesShortestAndNonFiniteAsNull() {
        #expect(text(.double(0.1)) == "0.1")
        #expect(text(.double(3)) == "3")
        #expect(text(.double(-0.0)) == "-0.0")
        #expect(text(.double(1e300)) == "1e+300")
        #expect(text(.double(.infinity)) == "null")
        #expect(text(.double(.nan)) == "null")
    }

    @Test func streamsFieldsWithCommasInserted() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("kind")
        writer.string("identitytoolkit#X")
        writer.key("list")
        writer.beginArray()
        writer.int(1)
        writer.beginObject()
        writer.endObject()
        writer.value(["a": 1])
        writer.endArray()
        writer.key("ok")
        writer.bool(true)
        writer.key("none")
        writer.null()
        writer.key("d")
        writer.double(1.5)
        writer.endObject()
        #expect(
            String(decoding: writer.bytes, as: UTF8.self)
                == #"{"kind":"identitytoolkit#X","list":[1,{},{"a":1}],"ok":true,"none":null,"d":1.5}"#
        )
    }

    @Test func writesIntoAnExistingBufferInPlace() {
        var bytes = Array("prefix ".utf8)
        JSONWriter.write(into: &bytes) { $0.value(["a": "b"]) }
        #expect(String(decoding: bytes, as: UTF8.self) == #"prefix {"a":"b"}"#)
    }

    @Test func roundTripsThroughTheParser() throws {
        let samples: [JSONValue] = [
            ["users": [["localId": "abc", "email": "a@b.c", "emailVerified": false, "createdAt": "1700000000000"]]],
            ["n": .int(.max), "m": .int(.min), "d": 0.1, "e": 1e-7, "big": 1.7976931348623157e308],
            ["s": "quote\" backslash\\ nl\n nul\u{0} emoji😀 rtl سلام"],
            [[[[[]]]], [:], ""],
        ]
        for sample in samples {
            let bytes = sample.serialized()
            let back = try JSONValue.parse(bytes)
            #expect(back == sample)
            #expect(back.serialized() == bytes)
        }
    }

    @Test func roundTripsRandomDoublesExactly() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1000 {
            let value = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
            let back = try JSONValue.parse(JSONValue.double(value).serialized())
            #expect(back.doubleValue == value)
        }
    }
}
