import Glibc
import HearthBase
import HearthHTTP
import Synchronization
import Testing

/// Deferred responses: the worker thread is free while the answer is being prepared elsewhere.
@Suite struct DeferredResponseTests {
    /// A router whose `/later` answers from another thread after `delayMilliseconds`.
    private static func router(delayMilliseconds: Int) -> Router {
        var router = Router()
        router.get("/later") { request in
            let tag = request.query["tag"] ?? ""
            return .deferred { promise in
                startBackgroundThread(named: "test-answer") {
                    usleep(UInt32(delayMilliseconds * 1_000))
                    promise.succeed(.json(["tag": .string(tag)]))
                }
            }
        }
        router.get("/now") { _ in .deferred { promise in promise.succeed(.json(["now": true])) } }
        return router
    }

    private func start(threads: Int, delayMilliseconds: Int) throws -> HTTPServer {
        let server = HTTPServer(
            configuration: HTTPServer.Configuration(port: 0, threadCount: threads, log: LogCapture.discarding),
            responder: Self.router(delayMilliseconds: delayMilliseconds)
        )
        try server.start()
        return server
    }

    @Test func aDeferredAnswerArrivesAndTheConnectionStaysAlive() throws {
        let server = try start(threads: 1, delayMilliseconds: 20)
        defer { server.stop() }
        let connection = try RawConnection(port: server.boundPort!)
        for index in 0..<3 {
            let response = try connection.request(
                "GET",
                "/later?tag=\(index)",
                headers: ["Origin: https://app.example"]
            )
            #expect(response.status == 200)
            #expect(response.text == #"{"tag":"\#(index)"}"#)
            // Headers the router adds reach the deferred answer too.
            #expect(response.header("access-control-allow-origin") == "*")
        }
        #expect(try connection.request("GET", "/now").text == #"{"now":true}"#)
    }

    @Test func oneWorkerThreadServesManyWaitingRequestsAtOnce() throws {
        // With one worker and answers that take 300 ms each, 16 concurrent requests finish
        // in about 300 ms only if the worker is not held while they wait.
        let server = try start(threads: 1, delayMilliseconds: 300)
        defer { server.stop() }
        let port = server.boundPort!
        let clock = ContinuousClock()
        let started = clock.now
        let failures = Atomic<Int>(0)
        let clients = (0..<16).map { index in
            TestThread {
                guard let connection = try? RawConnection(port: port),
                    let response = try? connection.request("GET", "/later?tag=\(index)"),
                    response.text == #"{"tag":"\#(index)"}"#
                else {
                    failures.add(1, ordering: .relaxed)
                    return
                }
            }
        }
        for client in clients { #expect(client.join()) }
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(clock.now - started < .milliseconds(2_500))
    }

    @Test func gracefulShutdownWaitsForDeferredAnswers() throws {
        let server = try start(threads: 1, delayMilliseconds: 500)
        let port = server.boundPort!
        let answer = Outcome<String>()
        let client = TestThread {
            answer.value = (try? RawConnection(port: port).request("GET", "/later?tag=last"))?.text
        }
        usleep(100_000)
        server.beginShutdown()
        #expect(server.waitForInFlight(timeout: .seconds(5)))
        server.stop()
        #expect(client.join())
        #expect(answer.value == #"{"tag":"last"}"#)
    }
}

@Suite struct StaticResponseTests {
    @Test func aStaticResponseIsServedOnlyOnceEnabledAndOnlyForItsExactPath() throws {
        var router = Router()
        router.get("/healthz") { _ in .json(["from": "router"]) }
        router.get("/healthz/deep") { _ in .json(["from": "deep"]) }
        var configuration = HTTPServer.Configuration(port: 0, threadCount: 1, log: LogCapture.discarding)
        configuration.staticResponses = ["/healthz": .json(["from": "static"])]
        let server = HTTPServer(configuration: configuration, responder: router)
        try server.start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.boundPort!)
        #expect(try connection.request("GET", "/healthz").text == #"{"from":"router"}"#)
        server.enableStaticResponses()
        #expect(try connection.request("GET", "/healthz").text == #"{"from":"static"}"#)
        #expect(try connection.request("HEAD", "/healthz").status == 200)
        #expect(try connection.request("GET", "/healthz/deep").text == #"{"from":"deep"}"#)
        #expect(try connection.request("GET", "/healthz?x=1").status == 200)
        #expect(try connection.request("POST", "/healthz", body: Array("{}".utf8)).status == 405)
    }
}
