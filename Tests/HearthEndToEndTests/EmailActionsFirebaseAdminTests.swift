import Foundation
import HearthTestSupport
import Testing

/// The stock `firebase-admin` Python package generates email-action links against the real
/// server (`FIREBASE_AUTH_EMULATOR_HOST`), and every link it gets works.
@Suite struct EmailActionsFirebaseAdminTests {
    @Test func firebaseAdminGeneratesLinksThatWorkAndHearsRefusals() throws {
        let server = try HearthServerProcess()
        let (status, output) = try runToolingScript(
            "firebase_admin_email_links.py",
            arguments: ["demo-project", "demo-api-key"],
            against: server
        )
        #expect(status == 0, "firebase-admin script failed:\n\(output)")
        #expect(output.contains("ok: unauthorized continue URL refused: UNAUTHORIZED_DOMAIN"), "\(output)")
        #expect(output.contains("ok: the generated link is in the development listing"), "\(output)")
        #expect(output.contains("ok: a profile update with null fields accepted"), "\(output)")
        #expect(output.contains("ALL OK"), "\(output)")
    }
}
