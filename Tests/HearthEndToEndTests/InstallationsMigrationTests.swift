import HearthTestSupport
import Testing

/// Clients migrating from Instance ID against the real binary, and the stock firebase-admin
/// deleting their legacy IDs (`instance_id.delete_instance_id`).
@Suite struct InstallationsMigrationTests {
    @Test func migratingIOSAndAndroidClientsKeepTheirLegacyIDsAndFirebaseAdminDeletesThem() throws {
        let server = try HearthServerProcess()
        let (status, output) = try runToolingScript(
            "firebase_admin_instance_id.py",
            arguments: [Seed.project, Seed.apiKey, Seed.iosApp, Seed.androidApp],
            against: server
        )
        #expect(status == 0, "firebase-admin script failed:\n\(output)")
        #expect(output.contains("ok: an unknown legacy ID raises NotFoundError"), "\(output)")
        #expect(output.contains("ALL OK"), "\(output)")
    }
}
