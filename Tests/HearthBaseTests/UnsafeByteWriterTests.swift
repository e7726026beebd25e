import HearthBase
import Testing

@Suite struct UnsafeByteWriterTests {
    private func write(_ body: (inout UnsafeByteWriter) -> Void) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { buffer in
            var writer = UnsafeByteWriter(buffer)
            body(&writer)
            return String(decoding: writer.written, as: UTF8.self)
        }
    }

    @Test func writesLiteralsBytesAndIntegers() {
        let text = write { writer in
            writer.append("n=")
            writer.appendInteger(0)
            writer.append(UInt8(ascii: ","))
            writer.appendInteger(-42)
            writer.append(UInt8(ascii: ","))
            writer.appendInteger(.max)
            writer.append(UInt8(ascii: ","))
            writer.appendInteger(.min)
            writer.append(UInt8(ascii: ","))
            writer.appendInteger(1_000_000)
        }
        #expect(text == "n=0,-42,9223372036854775807,-9223372036854775808,1000000")
    }

    @Test func quotesLikeJSONWriter() {
        for sample in [
            "", "plain", "quote\" back\\slash", "\n\t\u{0}\u{1F}", "é€😀", String(repeating: "x", count: 40) + "\"",
        ] {
            var expected: [UInt8] = []
            JSONWriter.appendQuoted(sample, to: &expected)
            #expect(write { $0.appendQuoted(sample) } == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test func writesTimestamps() {
        #expect(write { $0.appendISO8601(milliseconds: 1_700_000_000_123) } == "2023-11-14T22:13:20.123Z")
    }

    @Test func boundsTheEscapedSize() {
        let worst = String(repeating: "\u{1}", count: 10)
        var bytes: [UInt8] = []
        JSONWriter.appendQuoted(worst, to: &bytes)
        #expect(bytes.count == JSONWriter.maximumEscapedSize(of: worst))
    }
}
