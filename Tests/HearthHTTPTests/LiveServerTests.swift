import Glibc
import HearthBase
import HearthHTTP
import Testing

/// The server on a real socket (127.0.0.1, port 0), driven by a raw client so that connection
/// reuse, half-sent requests and closes are visible.
@Suite struct LiveServerTests {
    static let bodyLimit = 64 * 1024

    static func router() -> Router {
        var router = Router(aliasPrefixes: Router.firebaseAliasPrefixes)
        router.get("/healthz") { _ in .json(bytes: Array(#"{"ok":true}"#.utf8)) }
        let fixed = Response.json(["fixed": true]).fixed()
        router.get("/fixed") { _ in fixed }
        router.post("/echo") { request in .json(try request.jsonBody()) }
        router.add(.get, "/inspect/{name}", inspect)
        router.add(.post, "/inspect/{name}", inspect)
        router.get("/inject") { request in
            Response(status: .ok, headers: ["X-Echo": request.query["v"] ?? ""], body: Array("ok".utf8))
        }
        router.get("/slow") { _ in
            usleep(1_000_000)
            return .json(["slow": true])
        }
        return router
    }

    @Sendable static func inspect(_ request: Request) throws -> Response {
        var query = JSONObject()
        for item in request.query { query[item.name] = .string(item.value) }
        return .json([
            "method": .string(request.method.rawValue),
            "path": .string(request.path),
            "name": .string(request.pathParameters["name"] ?? ""),
            "query": .object(query),
            "userAgent": .string(request.headers["user-agent"] ?? ""),
            "headerNames": .array(request.headers.fields.map { .string($0.name) }),
            "remote": .string(request.remoteAddress),
            "bodyBytes": .int(Int64(request.body.count)),
        ])
    }

    private func startServer(
        accessLog: AccessLog? = nil,
        configure: (inout HTTPServer.Configuration) -> Void = { _ in }
    ) throws -> HTTPServer {
        var configuration = HTTPServer.Configuration(
            port: 0,
            threadCount: 2,
            maxBodyBytes: Self.bodyLimit,
            accessLog: accessLog,
            log: LogCapture.discarding
        )
        configure(&configuration)
        let server = HTTPServer(configuration: configuration, responder: Self.router())
        try server.start()
        return server
    }

    @Test func servesSeveralRequestsOnOneKeptAliveConnection() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        for _ in 0..<5 {
            let response = try connection.request("GET", "/healthz")
            #expect(response.status == 200)
            #expect(response.text == #"{"ok":true}"#)
            #expect(response.header("content-type") == "application/json; charset=UTF-8")
            #expect(response.header("date") != nil)
            #expect(response.header("connection")?.lowercased() != "close")
        }
        let posted = try connection.request("POST", "/echo", body: Array(#"{"a":[1,2]}"#.utf8))
        #expect(posted.text == #"{"a":[1,2]}"#)
        #expect(try connection.request("GET", "/healthz").status == 200)
    }

    @Test func reusesAFixedResponseAcrossConnectionsAndThreads() throws {
        let server = try startServer()
        let port = server.boundPort!
        let failures = Outcome<Int>()
        failures.value = 0
        let clients = (0..<6).map { _ in
            TestThread {
                var failed = 0
                if let connection = try? RawConnection(port: port) {
                    for index in 0..<200 {
                        let method = index % 5 == 0 ? "HEAD" : "GET"
                        let response = try? connection.request(method, "/fixed")
                        let expected = method == "HEAD" ? "" : #"{"fixed":true}"#
                        if response?.status != 200 || response?.text != expected
                            || response?.header("content-length") != "14"
                        {
                            failed += 1
                        }
                    }
                } else {
                    failed = 200
                }
                failures.add(failed)
            }
        }
        for client in clients { #expect(client.join()) }
        #expect(failures.value == 0)
        // While draining, a fixed response still announces the close. The connection is used
        // once first, so it is surely accepted (not still in the listen backlog, which a
        // shutdown resets) when the drain begins.
        let connection = try RawConnection(port: port)
        #expect(try connection.request("GET", "/fixed").status == 200)
        server.beginShutdown()
        #expect(try connection.request("GET", "/fixed").header("connection")?.lowercased() == "close")
    }

    @Test func answersPipelinedRequestsInOrder() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        try connection.send("GET /inspect/one HTTP/1.1\r\nHost: x\r\n\r\nGET /inspect/two HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try JSONValue.parse(connection.readResponse().body)["name"] == "one")
        #expect(try JSONValue.parse(connection.readResponse().body)["name"] == "two")
    }

    @Test func passesPathQueryHeadersAndRemoteAddressToTheHandler() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        let response = try connection.request(
            "GET",
            "/inspect/caf%C3%A9?key=a%2Bb&q=x+y&flag",
            headers: ["User-Agent: raw-test/1.0", "X-Goog-Api-Key: k"]
        )
        let body = try JSONValue.parse(response.body)
        #expect(body["path"] == "/inspect/caf%C3%A9")
        #expect(body["name"] == "café")
        #expect(body["query"] == ["key": "a+b", "q": "x y", "flag": ""])
        #expect(body["query"]?.objectValue?.keys == ["key", "q", "flag"])
        #expect(body["userAgent"] == "raw-test/1.0")
        #expect(body["headerNames"] == ["host", "user-agent", "x-goog-api-key"])
        #expect(body["remote"] == "127.0.0.1")
    }

    @Test func reachesTheSameHandlerThroughAnAliasPrefix() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        let response = try connection.request("POST", "/firebaseinstallations.googleapis.com/inspect/x?key=1")
        #expect(response.status == 200)
        #expect(try JSONValue.parse(response.body)["name"] == "x")
    }

    @Test func answersUnknownPathsAndWrongMethodsWithEnvelopes() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        let missing = try connection.request("GET", "/nope")
        #expect(missing.status == 404)
        #expect(try JSONValue.parse(missing.body)["error"]?["status"] == "NOT_FOUND")
        let wrong = try connection.request("DELETE", "/echo")
        #expect(wrong.status == 405)
        #expect(wrong.header("allow") == "POST, OPTIONS")
        #expect(try JSONValue.parse(wrong.body)["error"]?["code"] == 405)
        // Errors do not cost the connection.
        #expect(try connection.request("GET", "/healthz").status == 200)
    }

    @Test func answersMalformedJSONWith400() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        let response = try connection.request("POST", "/echo", body: Array(#"{"email":"a@b.c",}"#.utf8))
        #expect(response.status == 400)
        let error = try JSONValue.parse(response.body)["error"]
        #expect(error?["status"] == "INVALID_ARGUMENT")
        #expect(error?["message"]?.stringValue?.hasPrefix("Invalid JSON payload received.") == true)
    }

    @Test func answersHeadWithHeadersButNoBody() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        let head = try connection.request("HEAD", "/healthz")
        #expect(head.status == 200)
        #expect(head.header("content-length") == "11")
        #expect(head.body.isEmpty)
        // Had a body been sent, it would now be read as the next response's status line.
        let next = try connection.request("GET", "/healthz")
        #expect(next.status == 200)
        #expect(next.text == #"{"ok":true}"#)
    }

    @Test func dropsResponseHeaderValuesThatWouldSplitTheResponse() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        let response = try connection.request("GET", "/inject?v=a%0D%0AX-Injected:%20yes")
        #expect(response.status == 200)
        #expect(response.header("x-injected") == nil)
        #expect(response.header("x-echo") == nil)
        #expect(try connection.request("GET", "/inject?v=plain").header("x-echo") == "plain")
    }

    @Test func answersPreflightsWith204AndCORSHeaders() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        let response = try connection.request(
            "OPTIONS",
            "/echo",
            headers: ["Origin: http://localhost:5173", "Access-Control-Request-Method: POST"]
        )
        #expect(response.status == 204)
        #expect(response.header("access-control-allow-origin") == "*")
        #expect(response.header("access-control-allow-headers")?.contains("x-goog-api-key") == true)
        let posted = try connection.request(
            "POST",
            "/echo",
            headers: ["Origin: http://localhost:5173"],
            body: Array("{}".utf8)
        )
        #expect(posted.header("access-control-allow-origin") == "*")
    }

    @Test func rejectsABodyLargerThanTheLimitFromItsContentLength() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        // Headers only: the answer must come before any of the body is sent.
        try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(Self.bodyLimit + 1)\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(try JSONValue.parse(response.body)["error"]?["code"] == 413)
        // The unread body cannot be skipped, so the server closes the connection.
        #expect(connection.waitForClose(seconds: 5))
    }

    @Test func answers100ContinueOnlyForAcceptableBodies() throws {
        let server = try startServer()
        let accepted = try RawConnection(port: server.boundPort!)
        try accepted.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 7\r\n\r\n")
        #expect(try accepted.readResponse(bodyExpected: false).status == 100)
        try accepted.send("{\"a\":1}")
        #expect(try accepted.readResponse().text == #"{"a":1}"#)

        let refused = try RawConnection(port: server.boundPort!)
        try refused.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 10000000\r\n\r\n")
        #expect(try refused.readResponse().status == 413)
    }

    @Test func rejectsAChunkedBodyThatGrowsPastTheLimit() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        var request = "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        let chunk = String(repeating: "a", count: 8192)
        for _ in 0..<(Self.bodyLimit / 8192 + 2) { request += "2000\r\n\(chunk)\r\n" }
        request += "0\r\n\r\n"
        try connection.send(request)
        let response = try connection.readResponse()
        #expect(response.status == 413)
        // The whole body was read, so the connection stays usable.
        #expect(try connection.request("GET", "/healthz").status == 200)
    }

    @Test func acceptsAChunkedBodyWithinTheLimit() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        try connection.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\n\r\n"
        )
        #expect(try connection.readResponse().text == #"{"a":1}"#)
    }

    @Test func inflatesAGzipBody() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        let json = #"{"email":"user@example.com","requestType":"PASSWORD_RESET"}"#
        let response = try connection.request(
            "POST",
            "/echo",
            headers: ["Content-Encoding: gzip"],
            body: gzip(Array(json.utf8))
        )
        #expect(response.status == 200)
        #expect(response.text == json)
    }

    @Test func answersCorruptGzipWith400() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        let response = try connection.request(
            "POST",
            "/echo",
            headers: ["Content-Encoding: gzip"],
            body: Array("not gzip at all".utf8)
        )
        #expect(response.status == 400)
        #expect(try JSONValue.parse(response.body)["error"]?["message"] == "The request body is not valid gzip data.")
    }

    @Test func answersAGzipBombWith413() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        let bomb = gzip([UInt8](repeating: 0x20, count: 50 * 1024 * 1024))
        #expect(bomb.count < Self.bodyLimit)
        let response = try connection.request("POST", "/echo", headers: ["Content-Encoding: gzip"], body: bomb)
        #expect(response.status == 413)
        #expect(try connection.request("GET", "/healthz").status == 200)
    }

    @Test func answersUnsupportedContentEncodingsWith415() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        let response = try connection.request(
            "POST",
            "/echo",
            headers: ["Content-Encoding: br"],
            body: Array("{}".utf8)
        )
        #expect(response.status == 415)
    }

    @Test func honoursConnectionClose() throws {
        let server = try startServer()
        let connection = try RawConnection(port: server.boundPort!)
        let response = try connection.request("GET", "/healthz", headers: ["Connection: close"])
        #expect(response.status == 200)
        #expect(connection.waitForClose(seconds: 5))
    }

    @Test func keepsHTTP10ConnectionsOpenOnlyOnRequest() throws {
        let server = try startServer()
        let plain = try RawConnection(port: server.boundPort!)
        try plain.send("GET /healthz HTTP/1.0\r\n\r\n")
        #expect(try plain.readResponse().status == 200)
        #expect(plain.waitForClose(seconds: 5))

        let keepAlive = try RawConnection(port: server.boundPort!)
        for _ in 0..<2 {
            try keepAlive.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let response = try keepAlive.readResponse()
            #expect(response.status == 200)
            #expect(response.header("connection")?.lowercased() == "keep-alive")
        }
    }

    @Test func closesAConnectionThatStaysSilent() throws {
        let server = try startServer { $0.connectionTimeoutSeconds = 1 }
        let silent = try RawConnection(port: server.boundPort!)
        let halfSent = try RawConnection(port: server.boundPort!)
        try halfSent.send("GET /healthz HTTP/1.1\r\nHost: x\r\n")
        let started = ContinuousClock.now
        #expect(silent.waitForClose(seconds: 5))
        #expect(halfSent.waitForClose(seconds: 5))
        #expect(ContinuousClock.now - started >= .milliseconds(900))
        // An idle kept-alive connection times out too.
        let idle = try RawConnection(port: server.boundPort!)
        #expect(try idle.request("GET", "/healthz").status == 200)
        #expect(idle.waitForClose(seconds: 5))
    }

    @Test func answersHeadersLargerThanTheConnectionMemoryWith431() throws {
        let server = try startServer { $0.connectionMemoryLimitBytes = 16 * 1024 }
        let connection = try RawConnection(port: server.boundPort!)
        // A large, realistic header block fits…
        let cookies = "Cookie: " + String(repeating: "session=abcdefghijklmnopqrstuvwxyz0123456789; ", count: 100)
        #expect(try connection.request("GET", "/healthz", headers: [cookies]).status == 200)
        // …one beyond the per-connection memory does not.
        let huge = "X-Huge: " + String(repeating: "x", count: 20 * 1024)
        let response = try RawConnection(port: server.boundPort!).request("GET", "/healthz", headers: [huge])
        #expect(response.status == 431)
    }

    @Test func finishesASlowRequestDuringGracefulShutdownAndRefusesNewConnections() throws {
        let server = try startServer()
        let port = server.boundPort!
        let slowResponse = Outcome<RawResponse>()
        let client = TestThread {
            slowResponse.value = try? RawConnection(port: port).request("GET", "/slow")
        }
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while server.inFlightRequestCount == 0 && ContinuousClock.now < deadline { usleep(1000) }
        #expect(server.inFlightRequestCount == 1)

        server.beginShutdown()
        #expect(throws: RawClientError.self) { try RawConnection(port: port) }
        #expect(server.waitForInFlight(timeout: .seconds(5)))
        #expect(client.join(timeoutSeconds: 5))
        #expect(slowResponse.value?.status == 200)
        #expect(slowResponse.value?.header("connection")?.lowercased() == "close")
        server.stop()
        #expect(server.boundPort == nil)
    }

    @Test func canBeginShutdownFromAHandler() throws {
        let serverBox = Outcome<HTTPServer>()
        let server = HTTPServer(configuration: .init(accessLog: nil, log: LogCapture.discarding)) { _ in
            serverBox.value?.beginShutdown()
            return .text("bye")
        }
        serverBox.value = server
        try server.start()
        let port = server.boundPort!
        let response = try RawConnection(port: port).request("POST", "/admin/shutdown")
        #expect(response.text == "bye")
        #expect(response.header("connection")?.lowercased() == "close")
        #expect(throws: RawClientError.self) { try RawConnection(port: port) }
        #expect(server.waitForInFlight(timeout: .seconds(5)))
        server.stop()
        serverBox.value = nil
    }

    @Test func reportsWhetherInFlightRequestsFinishedInTime() throws {
        let server = try startServer()
        let port = server.boundPort!
        let client = TestThread { _ = try? RawConnection(port: port).request("GET", "/slow") }
        while server.inFlightRequestCount == 0 { usleep(1000) }
        #expect(!server.waitForInFlight(timeout: .milliseconds(100)))
        #expect(server.waitForInFlight(timeout: .seconds(5)))
        client.join()
    }

    @Test func reportsAPortInUseClearly() throws {
        let first = try startServer()
        let port = first.boundPort!
        let second = HTTPServer(configuration: .init(port: port, accessLog: nil, log: LogCapture.discarding)) { _ in
            .empty()
        }
        #expect(throws: HTTPServerError.addressInUse(host: "127.0.0.1", port: port)) { try second.start() }
        #expect(second.boundPort == nil)
    }

    @Test func rejectsAnAddressThatIsNotAnIP() {
        let server = HTTPServer(
            configuration: .init(host: "not an address", accessLog: nil, log: LogCapture.discarding)
        ) {
            _ in .empty()
        }
        #expect(throws: HTTPServerError.invalidAddress("not an address")) { try server.start() }
    }

    @Test func listensOnIPv6Loopback() throws {
        let server = HTTPServer(configuration: .init(host: "::1", accessLog: nil, log: LogCapture.discarding)) {
            request in
            .text(request.remoteAddress)
        }
        try server.start()
        let port = server.boundPort!
        let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(port).bigEndian)
        address.sin6_addr = in6addr_loopback
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        #expect(connected == 0)
        let request = Array("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var reply = [UInt8](repeating: 0, count: 4096)
        var received = 0
        while true {
            let count = reply.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress! + received, $0.count - received, 0)
            }
            guard count > 0 else { break }
            received += count
        }
        let text = String(decoding: reply[..<received], as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200"))
        #expect(text.hasSuffix("\r\n\r\n::1"))
    }

    @Test func releasesItsPortWhenStopped() throws {
        let first = try startServer()
        let port = first.boundPort!
        first.stop()
        let second = try startServer { $0.port = port }
        #expect(try RawConnection(port: port).request("GET", "/healthz").status == 200)
        second.beginShutdown()
        second.stop()
        let third = try startServer { $0.port = port }
        #expect(third.boundPort == port)
    }

    @Test func refusesASecondStart() throws {
        let server = try startServer()
        #expect(throws: HTTPServerError.alreadyStarted) { try server.start() }
    }

    @Test func writesOneAccessLogLinePerRequestWithoutSecrets() throws {
        let capture = LogCapture()
        let server = try startServer(accessLog: AccessLog(writer: capture.writer))
        let connection = try RawConnection(port: server.boundPort!)
        _ = try connection.request(
            "POST",
            "/inspect/x?key=SECRET-KEY&oobCode=SECRET-CODE",
            headers: ["Authorization: Bearer SECRET-TOKEN"],
            body: Array(#"{"password":"SECRET-PASSWORD"}"#.utf8)
        )
        _ = try connection.request("GET", "/nope")
        let lines = capture.lines()
        #expect(lines.count == 2)
        let first = try JSONValue.parse(Array(lines[0].utf8))
        #expect(first["method"] == "POST")
        #expect(first["path"] == "/inspect/x")
        #expect(first["status"] == 200)
        #expect(first["remote"] == "127.0.0.1")
        #expect((first["bytes"]?.int64Value ?? 0) > 0)
        #expect(first["durationMicros"]?.int64Value != nil)
        #expect(first["ts"]?.stringValue?.hasSuffix("Z") == true)
        #expect(!lines[0].contains("SECRET"))
        #expect(try JSONValue.parse(Array(lines[1].utf8))["status"] == 404)
    }
}
