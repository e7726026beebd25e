import Glibc
import HearthBase
import HearthHTTP
import Testing

/// The request head deadline and the body minimum rate, with short timings: trickled bytes do
/// not extend either, and a kept-alive connection is closed at the head deadline without an
/// unsolicited 408.
@Suite struct ConnectionDeadlineTests {
    static let headTimeoutMilliseconds = 300

    private func startServer() throws -> HTTPServer {
        let server = HTTPServer(
            configuration: HTTPServer.Configuration(
                port: 0,
                threadCount: 1,
                requestHeadTimeoutMilliseconds: Self.headTimeoutMilliseconds,
                bodyMinimumBytesPerSecond: 1_000,
                accessLog: nil,
                log: LogCapture.discarding
            ),
            handler: { _ in .json(["ok": true]) }
        )
        try server.start()
        return server
    }

    @Test("A request head trickled byte by byte gets 408 and a close at the deadline")
    func trickledHead() throws {
        let server = try startServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.boundPort!)
        let start = ContinuousClock.now
        try connection.send("GET /a HTTP/1.1\r\n")
        var answer: RawResponse?
        for _ in 0..<20 {
            try? connection.send("X")
            var state = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&state, 1, 50) > 0 {
                answer = try connection.readResponse()
                break
            }
        }
        let elapsed = ContinuousClock.now - start
        print("trickled head: answered \(answer?.status ?? 0) after \(elapsed)")
        #expect(answer?.status == 408)
        #expect(connection.waitForClose(seconds: 2))
        #expect(elapsed < .milliseconds(Self.headTimeoutMilliseconds + 400))
    }

    @Test("A body slower than the minimum rate is cut off")
    func slowBody() throws {
        let server = try startServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.boundPort!)
        let start = ContinuousClock.now
        try connection.send("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n0123456789")
        #expect(connection.waitForClose(seconds: 3))
        let elapsed = ContinuousClock.now - start
        print("slow body: closed after \(elapsed) (grace \(Self.headTimeoutMilliseconds) ms + 10 bytes at 1000 B/s)")
        #expect(elapsed < .milliseconds(Self.headTimeoutMilliseconds + 500))
    }

    @Test("A kept-alive connection with no next request is closed at the head deadline, without a 408")
    func keptAliveIdle() throws {
        let server = try startServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.boundPort!)
        #expect(try connection.request("GET", "/a").status == 200)
        var state = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&state, 1, 2000) > 0)
        var byte: UInt8 = 0
        #expect(recv(connection.descriptor, &byte, 1, 0) == 0)
    }
}
