import Glibc
import HearthBase
import HearthHTTP
import Synchronization
import Testing

/// Requests whose framing a proxy could read differently (RFC 9112 §6.3) are refused and their
/// connection closed: the second request pipelined behind each one, which would be the
/// smuggled request, never reaches the handler.
@Suite struct SmugglingTests {
    /// A server whose handler counts every request it runs.
    private final class CountingServer {
        let server: HTTPServer
        let counter: Counter

        init() throws {
            let counter = Counter()
            server = HTTPServer(
                configuration: HTTPServer.Configuration(
                    port: 0,
                    threadCount: 1,
                    accessLog: nil,
                    log: LogCapture.discarding
                ),
                handler: { _ in
                    counter.add()
                    return .json(["ok": true])
                }
            )
            self.counter = counter
            try server.start()
        }

        var port: Int { server.boundPort! }
    }

    private final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func add() { value.add(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
    }

    /// The trace request pipelined behind every shape: if it ran, the handler count shows it.
    static let pipelined = "GET /trace HTTP/1.1\r\nHost: x\r\n\r\n"

    /// Sends `head` (and the pipelined trace request) in one write and returns the answer, the
    /// handler count afterwards, and whether the server closed the connection.
    private func probe(_ request: String) throws -> (status: Int, handled: Int, closed: Bool, response: RawResponse) {
        let server = try CountingServer()
        defer { server.server.stop() }
        let connection = try RawConnection(port: server.port)
        try connection.send(Array((request + Self.pipelined).utf8))
        let response = try connection.readResponse()
        let closed = connection.waitForClose(seconds: 5)
        let handled = server.counter.count
        print(
            "smuggling shape \(request.debugDescription.prefix(90)): status \(response.status), "
                + "closed \(closed), requests run \(handled)"
        )
        return (response.status, handled, closed, response)
    }

    @Test("Two well-formed pipelined requests both run (the probe sees a second request)")
    func wellFormedPipelineRunsBoth() throws {
        let server = try CountingServer()
        defer { server.server.stop() }
        let connection = try RawConnection(port: server.port)
        try connection.send(Array(("GET /first HTTP/1.1\r\nHost: x\r\n\r\n" + Self.pipelined).utf8))
        #expect(try connection.readResponse().status == 200)
        #expect(try connection.readResponse().status == 200)
        #expect(server.counter.count == 2)
    }

    @Test("Transfer-Encoding and Content-Length together get 400 and a close")
    func transferEncodingWithContentLength() throws {
        let result = try probe(
            "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        )
        #expect(result.status == 400)
        #expect(result.response.header("connection")?.lowercased() == "close")
        #expect(result.closed)
        #expect(result.handled == 0)
        #expect(result.response.text.contains("Transfer-Encoding and Content-Length"))
    }

    @Test("Content-Length before Transfer-Encoding, in either order, gets 400")
    func contentLengthWithTransferEncodingReversed() throws {
        let result = try probe(
            "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 0\r\n\r\n0\r\n\r\n"
        )
        #expect(result.status == 400)
        #expect(result.closed)
        #expect(result.handled == 0)
    }

    /// Two fields are refused by the server's own check; one list value
    /// (`Content-Length: 0, 3`) already by libmicrohttpd, as a malformed length.
    @Test("Differing Content-Length values get 400 and a close")
    func differingContentLengths() throws {
        for shape in [
            "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 3\r\n\r\nabc",
            "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0, 3\r\n\r\nabc",
        ] {
            let result = try probe(shape)
            #expect(result.status == 400)
            #expect(result.closed)
            #expect(result.handled == 0)
        }
    }

    @Test("A transfer coding other than chunked gets 501 and a close")
    func otherTransferCoding() throws {
        for coding in ["gzip", "gzip, chunked", "chunked, chunked", "identity"] {
            let result = try probe("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \(coding)\r\n\r\n0\r\n\r\n")
            #expect(result.status == 501, "Transfer-Encoding: \(coding)")
            #expect(result.closed)
            #expect(result.handled == 0)
        }
    }

    @Test("A NUL or control byte in the request target gets 400 and a close")
    func controlByteInTarget() throws {
        for target in ["/healthz\u{0}abc", "/healthz\u{0}", "/a\u{1}b", "/a?x=\u{0}", "/a\u{7F}", "/a\tb"] {
            let result = try probe("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(result.status == 400, "target \(target.debugDescription)")
            #expect(result.closed)
            #expect(result.handled == 0)
        }
    }

    @Test("A query with several arguments is still served (the NUL check sees through the split)")
    func queryArgumentsServed() throws {
        let server = try CountingServer()
        defer { server.server.stop() }
        let connection = try RawConnection(port: server.port)
        #expect(try connection.request("GET", "/a?x=1&y=2&z").status == 200)
        #expect(try connection.request("GET", "/a?").status == 200)
        #expect(try connection.request("GET", "/a%00b").status == 200)
        #expect(server.counter.count == 3)
    }

    @Test("Whitespace before a header's colon gets 400 and a close")
    func whitespaceBeforeColon() throws {
        for header in ["Content-Length : 3", "Content-Length\t: 3", "X-Other : 1"] {
            let result = try probe("POST /a HTTP/1.1\r\nHost: x\r\n\(header)\r\n\r\nabc")
            #expect(result.status == 400, "header \(header.debugDescription)")
            #expect(result.closed)
            #expect(result.handled == 0)
        }
    }
}
