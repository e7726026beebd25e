import Testing

@testable import HearthHTTP

@Suite struct RequestBodyTests {
    private func feed(_ body: inout RequestBody, _ bytes: [UInt8], chunkSize: Int = 1000) {
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunkSize)
            bytes[offset..<end].withUnsafeBytes { body.append($0) }
            offset = end
        }
    }

    @Test func collectsChunksUpToTheLimit() throws {
        var body = RequestBody(encoding: .identity, limit: 10, expectedLength: 10)
        feed(&body, Array("0123456789".utf8), chunkSize: 3)
        #expect(try body.finish().get() == Array("0123456789".utf8))
    }

    @Test func failsOnceTheLimitIsPassed() {
        var body = RequestBody(encoding: .identity, limit: 10, expectedLength: nil)
        feed(&body, Array("0123456789X".utf8), chunkSize: 4)
        #expect(body.finish() == .failure(.tooLarge))
        #expect(body.receivedBytes == 11)
    }

    @Test func abandonsAClientThatKeepsSendingPastTheDiscardLimit() {
        var body = RequestBody(encoding: .identity, limit: 1000, expectedLength: nil)
        feed(&body, [UInt8](repeating: 1, count: 900))
        #expect(!body.shouldAbandon(discardLimit: 0))
        feed(&body, [UInt8](repeating: 1, count: 200))
        // The bytes after the failing chunk count, not the body before it.
        #expect(!body.shouldAbandon(discardLimit: 5000))
        feed(&body, [UInt8](repeating: 1, count: 5000))
        #expect(!body.shouldAbandon(discardLimit: 5000))
        feed(&body, [1])
        #expect(body.shouldAbandon(discardLimit: 5000))
    }

    @Test func inflatesGzipInAnyChunking() throws {
        let original = Array(String(repeating: #"{"email":"user@example.com"}"#, count: 50).utf8)
        let compressed = gzip(original)
        for chunkSize in [1, 7, 100, compressed.count] {
            var body = RequestBody(encoding: .gzip, limit: 1 << 20, expectedLength: compressed.count)
            feed(&body, compressed, chunkSize: chunkSize)
            #expect(try body.finish().get() == original)
        }
    }

    @Test func inflatesConcatenatedGzipMembers() throws {
        var body = RequestBody(encoding: .gzip, limit: 1000, expectedLength: nil)
        feed(&body, gzip(Array("hello ".utf8)) + gzip(Array("world".utf8)), chunkSize: 5)
        #expect(try body.finish().get() == Array("hello world".utf8))
    }

    @Test func appliesTheLimitToTheInflatedSize() {
        let bomb = gzip([UInt8](repeating: 0, count: 10 * 1024 * 1024))
        #expect(bomb.count < 20 * 1024)
        var body = RequestBody(encoding: .gzip, limit: 64 * 1024, expectedLength: bomb.count)
        feed(&body, bomb)
        #expect(body.finish() == .failure(.tooLarge))
    }

    @Test func acceptsAnInflatedBodyOfExactlyTheLimit() throws {
        let exact = [UInt8](repeating: 7, count: 4096)
        var body = RequestBody(encoding: .gzip, limit: 4096, expectedLength: nil)
        feed(&body, gzip(exact))
        #expect(try body.finish().get() == exact)
    }

    @Test func rejectsCorruptAndTruncatedGzip() {
        var garbage = RequestBody(encoding: .gzip, limit: 1000, expectedLength: nil)
        feed(&garbage, Array("definitely not gzip".utf8))
        #expect(garbage.finish() == .failure(.corruptGzip))

        let compressed = gzip(Array(String(repeating: "abc", count: 100).utf8))
        var truncated = RequestBody(encoding: .gzip, limit: 1000, expectedLength: nil)
        feed(&truncated, Array(compressed.dropLast(6)))
        #expect(truncated.finish() == .failure(.corruptGzip))

        var damaged = compressed
        damaged[damaged.count - 6] ^= 0xFF  // the CRC-32 trailer
        var checked = RequestBody(encoding: .gzip, limit: 1000, expectedLength: nil)
        feed(&checked, damaged)
        #expect(checked.finish() == .failure(.corruptGzip))

        var trailing = RequestBody(encoding: .gzip, limit: 1000, expectedLength: nil)
        feed(&trailing, compressed + Array("junk".utf8))
        #expect(trailing.finish() == .failure(.corruptGzip))
    }

    @Test func treatsAnEmptyGzipBodyAsEmpty() throws {
        var body = RequestBody(encoding: .gzip, limit: 1000, expectedLength: 0)
        #expect(try body.finish().get() == [])
    }

    @Test func readsContentEncodingValues() {
        #expect(RequestBody.Encoding(headerValue: nil) == .identity)
        #expect(RequestBody.Encoding(headerValue: "identity") == .identity)
        #expect(RequestBody.Encoding(headerValue: " GZIP ") == .gzip)
        #expect(RequestBody.Encoding(headerValue: "x-gzip") == .gzip)
        #expect(RequestBody.Encoding(headerValue: "br") == nil)
        #expect(RequestBody.Encoding(headerValue: "deflate") == nil)
        #expect(RequestBody.Encoding(headerValue: "gzip, gzip") == nil)
    }
}
