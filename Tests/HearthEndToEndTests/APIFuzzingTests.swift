import Foundation
import HearthTestSupport
import Testing

/// Schemathesis against the real server from the checked-in OpenAPI description
/// (`docs/openapi.json`), stateful along its links, then the hosted action page's form with
/// random fields: `Tests/tooling/schemathesis_routes.py`. No 5xx, no dropped connection, no
/// answer slower than 5 s, bounded memory; the tool prints its request and status counts.
@Suite struct APIFuzzingTests {
    /// Fixed, so that a failure reproduces.
    static let seed = 20_261_203
    /// Seconds of schemathesis: about two minutes of the CI budget on two cores.
    static let seconds = 90

    @Test("schemathesis and the hosted form's fuzzing find no 5xx, hang or memory growth")
    func schemathesisFindsNoServerError() throws {
        let server = try HearthServerProcess()
        let pid = try #require(server.process?.processIdentifier)
        let spec = testToolingDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.json")
        let (status, output) = try runToolingScript(
            "schemathesis_routes.py",
            arguments: [
                "--base-url", server.baseURL, "--spec", spec.path, "--server-pid", String(pid),
                "--seed", String(Self.seed), "--max-time", String(Self.seconds),
            ],
            against: server
        )
        print(output)
        #expect(status == 0, "schemathesis_routes.py found problems:\n\(output)")
        #expect(
            server.process?.isRunning == true,
            "the server exited; its last lines:\n\(server.output.suffix(20).joined(separator: "\n"))"
        )
    }
}
