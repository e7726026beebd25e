import Foundation
import HearthTestSupport
import HearthTransport
import Synchronization
import Testing

@testable import Hearth

/// Stands in for Hearth: answers each request with the next status of a script (an error
/// envelope), and counts what reached it.
final class ScriptedTransport: HTTPTransport {
    private let script: Mutex<[Int]>
    private let received = Mutex(0)

    init(statuses: [Int]) { script = Mutex(statuses) }

    var requestCount: Int { received.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        received.withLock { $0 += 1 }
        let status = script.withLock { $0.isEmpty ? 503 : $0.removeFirst() }
        let body = #"{"error":{"code":\#(status),"message":"scripted","status":"UNAVAILABLE"}}"#
        return HTTPResponse(status: status, headers: ["content-type": "application/json"], body: Data(body.utf8))
    }
}

@Suite("Back-off")
struct BackoffTests {
    @Test("Recoverable failures wait 2^n seconds up to 30 minutes; 400 and 403 wait a day; success clears")
    func schedule() {
        let start = Date(timeIntervalSince1970: 0)
        var backoff = Backoff()
        #expect(backoff.allowsRequest(at: start))
        backoff.record(.recoverableFailure, at: start, jitter: 0.5)
        #expect(backoff.nextAllowed == start.addingTimeInterval(2.5))
        backoff.record(.recoverableFailure, at: start, jitter: 0)
        #expect(backoff.nextAllowed == start.addingTimeInterval(4))
        for _ in 0..<20 { backoff.record(.recoverableFailure, at: start, jitter: 0) }
        #expect(backoff.nextAllowed == start.addingTimeInterval(30 * 60))
        backoff.record(.unrecoverableFailure, at: start, jitter: 0)
        #expect(backoff.nextAllowed == start.addingTimeInterval(24 * 3600))
        backoff.record(.success, at: start, jitter: 0)
        #expect(backoff.allowsRequest(at: start))
        backoff.record(.recoverableFailure, at: start, jitter: 0)
        #expect(backoff.nextAllowed == start.addingTimeInterval(2), "a new run of failures starts again at 2 s")
    }

    @Test("Statuses are classified as PRODUCT.md §5 says")
    func classification() {
        #expect(Backoff.Outcome(status: 429) == .recoverableFailure)
        #expect(Backoff.Outcome(status: 500) == .recoverableFailure)
        #expect(Backoff.Outcome(status: 503) == .recoverableFailure)
        #expect(Backoff.Outcome(status: 400) == .unrecoverableFailure)
        #expect(Backoff.Outcome(status: 403) == .unrecoverableFailure)
        #expect(Backoff.Outcome(status: 404) == .success)
        #expect(Backoff.Outcome(status: 401) == .success)
        #expect(Backoff.Outcome(status: 200) == .success)
    }

    @Test("Over real HTTP, a 429 then a 503 hold the client back 2 s then 4 s plus jitter; then Hearth registers it")
    func observedOverRealHTTP() async throws {
        let harness = try ClientHarness()
        let front = try FaultInjectingFront(failures: [429, 503], upstream: harness.server, time: harness.time)
        let jitter = 0.25
        let installations = Installations(
            app: harness.makeApp(transport: URLSessionTransport(), baseURL: front.baseURL, backoffJitter: jitter)
        )
        let start = harness.time.now

        // An app retrying on a timer: a call every quarter second of the client's clock until
        // one succeeds. Calls inside the back-off are refused here and send nothing.
        var calls = 0
        var token: InstallationsAuthTokenResult?
        while token == nil && calls < 100 {
            calls += 1
            do {
                token = try await installations.authToken()
            } catch let error as InstallationsErrorCode where error.code == .serverUnreachable {
                harness.time.advance(by: 0.25)
            }
        }

        let arrivals = front.received
        #expect(arrivals.map(\.status) == [429, 503, 200])
        #expect(
            arrivals.allSatisfy { $0.method == "POST" && $0.path == "/v1/projects/\(Seed.projectID)/installations" }
        )
        let offsets = arrivals.map { $0.clientTime.timeIntervalSince(start) }
        let expected: [TimeInterval] = [0, 2 + jitter, 2 + jitter + 4 + jitter]
        #expect(offsets.count == expected.count)
        for (offset, wanted) in zip(offsets, expected) { #expect(abs(offset - wanted) < 0.001, "\(offsets)") }
        #expect(calls == 27, "every call between the three arrivals was held back without a request")

        // The last answer was Hearth's own: the installation exists there, and the back-off is
        // cleared, so a forced refresh goes out at once.
        let fid = try await installations.installationID()
        #expect(try harness.serverInstallations().compactMap { $0["fid"] as? String } == [fid])
        let refreshed = try await installations.authTokenForcingRefresh(true)
        #expect(refreshed.authToken != token?.authToken)
        #expect(front.received.last?.path.hasSuffix("/authTokens:generate") == true)
        #expect(front.received.last?.clientTime == harness.time.now)
    }

    @Test(
        "Against a scripted transport answering 429 then 503, requests wait 2 s then 4 s; a 403 then holds them a day"
    )
    func observedAgainstAFailingServer() async throws {
        let harness = try ClientHarness(startingServer: false)
        let server = ScriptedTransport(statuses: [429, 503, 403])
        let installations = Installations(app: harness.makeApp(transport: server))

        await #expect(throws: InstallationsErrorCode.self) { try await installations.authToken() }
        #expect(server.requestCount == 1)
        await #expect { try await installations.authToken() } throws: { error in
            (error as? InstallationsErrorCode)?.code == .serverUnreachable
        }
        #expect(server.requestCount == 1, "held back for 2 s after the 429")

        harness.time.advance(by: 2)
        await #expect(throws: InstallationsErrorCode.self) { try await installations.authToken() }
        #expect(server.requestCount == 2)
        harness.time.advance(by: 3.9)
        await #expect(throws: InstallationsErrorCode.self) { try await installations.authToken() }
        #expect(server.requestCount == 2, "held back for 4 s after the 503")

        harness.time.advance(by: 0.1)
        await #expect { try await installations.authToken() } throws: { error in
            (error as? InstallationsErrorCode)?.code == .invalidConfiguration
        }
        #expect(server.requestCount == 3)
        harness.time.advance(by: 23 * 3600)
        await #expect(throws: InstallationsErrorCode.self) { try await installations.authToken() }
        #expect(server.requestCount == 3, "held back for a day after the 403")
        harness.time.advance(by: 3600)
        await #expect(throws: InstallationsErrorCode.self) { try await installations.authToken() }
        #expect(server.requestCount == 4)
    }
}
