import Glibc
import HearthBase
import HearthHTTP
import Synchronization
import Testing

/// A router with a handler pool: handlers that may block run on the pool, so the server's one
/// event thread keeps answering what it can answer from memory.
@Suite struct HandlerPoolTests {
    /// Whether the blocking handler has started, and whether it may finish.
    private final class Gate: Sendable {
        let state = ConditionLock((entered: false, open: false))

        func enterAndWait() {
            state.withLockThenBroadcast { $0.entered = true }
            state.wait(until: { $0.open }) { _ in }
        }

        func waitUntilEntered() { state.wait(until: { $0.entered }, timeoutMilliseconds: 10_000) { _ in } }

        func open() { state.withLockThenBroadcast { $0.open = true } }
    }

    @Test func anEventThreadHandlerAnswersWhilePooledOnesWaitAndPooledAnswersKeepTheirHeaders() throws {
        let gate = Gate()
        let pool = HandlerPool(threads: 1, name: "test-pool")
        defer { pool.stop() }
        var router = Router(log: LogCapture.discarding, handlerPool: pool)
        router.get("/blocked") { _ in
            gate.enterAndWait()
            return .json(["blocked": false])
        }
        router.get("/memory", on: .eventThread) { _ in .json(["memory": true]) }
        // A pooled handler that itself answers later, as a write does.
        router.get("/write") { _ in .deferred { promise in promise.succeed(.json(["written": true])) } }
        let server = HTTPServer(
            configuration: HTTPServer.Configuration(port: 0, threadCount: 1, log: LogCapture.discarding),
            responder: router
        )
        try server.start()
        defer { server.stop() }
        let port = server.boundPort!

        let blocked = TestThread {
            let response = try? RawConnection(port: port).request("GET", "/blocked")
            #expect(response?.text == #"{"blocked":false}"#)
        }
        gate.waitUntilEntered()
        let queued = Atomic<Bool>(false)
        let write = TestThread {
            let response = try? RawConnection(port: port).request(
                "GET",
                "/write",
                headers: ["Origin: https://app.example"]
            )
            let ranAfterTheBlockedOne = queued.load(ordering: .relaxed)
            #expect(ranAfterTheBlockedOne, "the pooled request ran before the pool's thread was free")
            #expect(response?.text == #"{"written":true}"#)
            #expect(response?.header("access-control-allow-origin") == "*")
        }

        let clock = ContinuousClock()
        let asked = clock.now
        let memory = try RawConnection(port: port).request("GET", "/memory")
        #expect(memory.text == #"{"memory":true}"#)
        #expect(clock.now - asked < .seconds(1), "the event thread waited for the pool")

        queued.store(true, ordering: .relaxed)
        gate.open()
        #expect(blocked.join())
        #expect(write.join())
    }

    @Test func whileJobsFailFastAPooledRequestIsAnsweredInPlaceInsteadOfQueuingBehindTheBusyThreads() throws {
        let gate = Gate()
        let failsFast = Atomic<Bool>(false)
        let pool = HandlerPool(threads: 1, name: "test-pool") { failsFast.load(ordering: .relaxed) }
        defer { pool.stop() }
        var router = Router(log: LogCapture.discarding, handlerPool: pool)
        router.get("/blocked") { _ in
            gate.enterAndWait()
            return .json(["blocked": false])
        }
        router.get("/store") { _ in .json(["answered": true]) }
        let server = HTTPServer(
            configuration: HTTPServer.Configuration(port: 0, threadCount: 1, log: LogCapture.discarding),
            responder: router
        )
        try server.start()
        defer { server.stop() }
        let port = server.boundPort!

        let blocked = TestThread { _ = try? RawConnection(port: port).request("GET", "/blocked") }
        gate.waitUntilEntered()
        // The store is found not to answer: its handlers fail at once, so they need no pool
        // thread, and the pool's only one is busy.
        failsFast.store(true, ordering: .relaxed)
        let clock = ContinuousClock()
        let asked = clock.now
        let answer = try RawConnection(port: port).request("GET", "/store")
        #expect(clock.now - asked < .seconds(1), "the request queued behind the busy pool thread")
        #expect(answer.text == #"{"answered":true}"#)

        gate.open()
        #expect(blocked.join())
    }
}
