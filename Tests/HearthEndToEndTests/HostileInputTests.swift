import Foundation
import HearthTestSupport
import Testing

/// Hostile input on every route of the real server, sent by the seeded fuzzer
/// `Tests/tooling/fuzz_routes.py`: each request gets a clear 4xx in the JSON error envelope —
/// never a 5xx, a dropped connection or a hang — and what was stored before still works.
@Suite struct HostileInputTests {
    /// Fixed, so that a failure reproduces: the tool names each problem's request number.
    static let seed = 20_261_201
    /// About 20 s of requests against a debug build.
    static let requests = 4_000

    @Test func hostileInputOnEveryRouteGetsAClearClientErrorAndLosesNothing() throws {
        let server = try HearthServerProcess()
        let (status, output) = try runToolingScript(
            "fuzz_routes.py",
            arguments: [
                "--base-url", server.baseURL, "--seed", String(Self.seed), "--requests", String(Self.requests),
            ],
            against: server
        )
        #expect(status == 0, "fuzz_routes.py found problems:\n\(output)")
        #expect(
            server.process?.isRunning == true,
            "the server exited; its last lines:\n\(server.output.suffix(20).joined(separator: "\n"))"
        )
    }
}
