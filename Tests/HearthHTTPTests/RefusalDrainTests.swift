import Glibc
import HearthBase
import HearthHTTP
import Testing

/// Refusals sent before a request is read to its end reach a client that sends the whole
/// request in one write: the server keeps reading (and dropping) what the client sends, up to
/// its drain bounds, instead of closing on unread bytes, which would reset the connection
/// while the client is still writing.
@Suite struct RefusalDrainTests {
    static let bodyLimit = 64 * 1024
    static let largeBody = [UInt8](repeating: UInt8(ascii: "a"), count: 4 * 1024 * 1024)

    private func startServer(
        configure: (inout HTTPServer.Configuration) -> Void = { _ in },
        handler: @escaping @Sendable (Request) -> Response = { _ in .json(["ok": true]) }
    ) throws -> HTTPServer {
        var configuration = HTTPServer.Configuration(
            port: 0,
            threadCount: 2,
            maxBodyBytes: Self.bodyLimit,
            connectionMemoryLimitBytes: 16 * 1024,
            accessLog: nil,
            log: LogCapture.discarding
        )
        configure(&configuration)
        let server = HTTPServer(configuration: configuration, handler: handler)
        try server.start()
        return server
    }

    /// Sends `head` and `body` in one write, as stock clients do, and reads the answer.
    private func sendAtOnce(_ head: String, _ body: [UInt8], port: Int) throws -> RawResponse {
        let connection = try RawConnection(port: port)
        try connection.send(Array(head.utf8) + body)
        let response = try connection.readResponse()
        #expect(connection.waitForClose(seconds: 15))
        return response
    }

    @Test func answers413ToABodyTooLargeByItsContentLengthSentInOneWrite() throws {
        let server = try startServer()
        for _ in 0..<3 {
            let response = try sendAtOnce(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(Self.largeBody.count)\r\n\r\n",
                Self.largeBody,
                port: server.boundPort!
            )
            #expect(response.status == 413)
            #expect(try JSONValue.parse(response.body)["error"]?["code"] == 413)
        }
    }

    @Test func answers413ToAChunkedBodyFarPastTheLimitSentInOneWrite() throws {
        let server = try startServer()
        var head = "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        let chunk = String(repeating: "a", count: 65536)
        for _ in 0..<64 { head += "10000\r\n\(chunk)\r\n" }
        head += "0\r\n\r\n"
        let connection = try RawConnection(port: server.boundPort!)
        try connection.send(head)
        #expect(try connection.readResponse().status == 413)
    }

    @Test func answers415ToAnUnreadableEncodingWithItsBodyInOneWrite() throws {
        let server = try startServer()
        let response = try sendAtOnce(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Encoding: br\r\nContent-Length: \(Self.largeBody.count)\r\n\r\n",
            Self.largeBody,
            port: server.boundPort!
        )
        #expect(response.status == 415)
    }

    @Test func answers431ToHeadersPastTheConnectionMemoryFollowedByABody() throws {
        let server = try startServer()
        let huge = "X-Huge: " + String(repeating: "x", count: 20 * 1024)
        let response = try sendAtOnce(
            "POST /echo HTTP/1.1\r\nHost: x\r\n\(huge)\r\nContent-Length: \(Self.largeBody.count)\r\n\r\n",
            Self.largeBody,
            port: server.boundPort!
        )
        #expect(response.status == 431)
    }

    @Test func answers400ToABrokenContentLengthFollowedByABody() throws {
        let server = try startServer()
        let response = try sendAtOnce(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4194304x\r\n\r\n",
            Self.largeBody,
            port: server.boundPort!
        )
        #expect(response.status == 400)
    }

    @Test func answers503WhileStartingAfterReadingTheWholeBody() throws {
        let server = try startServer { _ in
        } handler: { _ in
            GoogleAPIError.unavailable("The server is starting; try again shortly.").response()
        }
        let connection = try RawConnection(port: server.boundPort!)
        let body = [UInt8](repeating: UInt8(ascii: " "), count: Self.bodyLimit)
        for _ in 0..<3 {
            try connection.send(
                Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            )
            #expect(try connection.readResponse().status == 503)
        }
    }

    @Test func stopsReadingAClientThatSendsPastTheDrainLimit() throws {
        let server = try startServer { $0.refusalDrainBytes = 256 * 1024 }
        let port = server.boundPort!
        let failed = Outcome<Bool>()
        let client = TestThread {
            do {
                let connection = try RawConnection(port: port)
                try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n")
                let chunk = [UInt8](repeating: 1, count: 1024 * 1024)
                for _ in 0..<1000 { try connection.send(chunk) }
                failed.value = false
            } catch {
                failed.value = true
            }
        }
        #expect(client.join(timeoutSeconds: 30))
        #expect(failed.value == true)
    }
}
