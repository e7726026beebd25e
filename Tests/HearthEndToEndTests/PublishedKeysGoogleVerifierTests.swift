import Foundation
import HearthTestSupport
import Testing

/// Stock verifiers from PyPI (google-auth and PyJWT, in the test venv) pointed at the real
/// server's Google-shaped key documents verify its ID tokens offline, across a key rotation.
@Suite struct PublishedKeysGoogleVerifierTests {
    @Test func googleAuthAndPyJWTVerifyHearthIDTokensAcrossAKeyRotation() throws {
        let server = try Accounts.server(testClock: false)
        let (status, output) = try runToolingScript(
            "google_id_token_verifiers.py",
            arguments: ["demo-project", Accounts.apiKey, "owner"],
            against: server
        )
        #expect(status == 0, "verifier script failed:\n\(output)")
        #expect(output.contains("ok: google-auth verifies the tokens of both keys after the rotation"), "\(output)")
        #expect(output.contains("ALL OK"), "\(output)")
    }
}
