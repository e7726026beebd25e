import Foundation
import HearthTestSupport
import Testing

/// The stock `firebase-admin` Python package (from PyPI, in the test venv) against the real
/// server through `FIREBASE_AUTH_EMULATOR_HOST`: user management (phone numbers and exported
/// password hashes included), revocation and ID token verification.
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
        #expect(output.contains("ok: revoke_refresh_tokens in the second of a sign-in"), "\(output)")
        #expect(output.contains("ok: list_users().users[i].password_hash verifies"), "\(output)")
        #expect(output.contains("ok: update_user changes the phone number"), "\(output)")
        #expect(output.contains("ALL OK"), "\(output)")
    }
}
