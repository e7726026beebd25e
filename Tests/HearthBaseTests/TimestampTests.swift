import HearthBase
import Testing

@Suite struct TimestampTests {
    private func format(_ milliseconds: Int64) -> String {
        var bytes: [UInt8] = []
        Timestamp.appendISO8601(milliseconds: milliseconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func formatsTheEpoch() {
        #expect(format(0) == "1970-01-01T00:00:00.000Z")
    }

    @Test func formatsKnownInstants() {
        #expect(format(951_782_400_000) == "2000-02-29T00:00:00.000Z")
        #expect(format(1_700_000_000_123) == "2023-11-14T22:13:20.123Z")
        #expect(format(4_102_444_799_999) == "2099-12-31T23:59:59.999Z")
        #expect(format(-1) == "1969-12-31T23:59:59.999Z")
    }

    @Test func writesTheSameTextAsAStringAsIntoBytes() {
        for milliseconds: Int64 in [0, -1, 951_782_400_000, 1_700_000_000_123, 4_102_444_799_999] {
            #expect(Timestamp.iso8601(milliseconds: milliseconds) == format(milliseconds))
        }
    }
}
