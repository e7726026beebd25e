import Foundation
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

    @Test("Against a server answering 429 then 503, requests wait 2 s then 4 s; a 403 then holds them a day")
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
