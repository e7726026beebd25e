import Foundation
import HearthTestSupport
import Testing

/// The stock `firebase-admin` Python package (from PyPI, in the test venv) against the real
/// server through `FIREBASE_AUTH_EMULATOR_HOST`: user management and ID token verification.
@Suite struct AccountsFirebaseAdminTests {
    @Test func firebaseAdminManagesUsersAndVerifiesHearthIDTokens() throws {
        let server = try Accounts.server(testClock: false)
        let (status, output) = try runToolingScript(
            "firebase_admin_accounts.py",
            arguments: ["demo-project", Accounts.apiKey],
            against: server
        )
        #expect(status == 0, "firebase-admin script failed:\n\(output)")
        #expect(output.contains("ok: verify_id_token(check_revoked=True)"), "\(output)")
        #expect(output.contains("ALL OK"), "\(output)")
    }
}
