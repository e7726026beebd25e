import HearthCrypto
import Testing

@Suite struct ES256StressTests {
    /// The 100,000-round run recommended for catching r/s padding bugs. About 7 s in a debug build on the
    /// 2-core CI box when run alone (OpenSSL's ~15 µs sign + ~45 µs verify dominate).
    @Test func hundredThousandSignVerifyRoundTrips() throws {
        let count = 100_000
        let (verified, shortScalars) = try ES256Tests.roundTrip(count: count)
        #expect(verified == count)
        // Expected ≈ 780 signatures with a leading zero byte in r or s.
        #expect(shortScalars > 400)
    }
}
