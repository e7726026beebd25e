import Foundation
import HearthTestSupport
import Testing

/// Refusals of the real binary reach stock clients that send the whole request at once.
@Suite struct RefusalTests {
    @Test func aFourMebibyteBodyIs413ForHTTPClientAndCurlEveryTime() throws {
        let server = try HearthServerProcess()
        let (status, output) = try runToolingScript(
            "large_body_refusals.py",
            arguments: [server.baseURL, "/v1/accounts:signUp?key=demo-api-key", String(4 * 1024 * 1024)],
            against: server
        )
        #expect(status == 0, "\(output)")
        #expect(output.contains("all 30 attempts answered 413"))
    }
}
