import Foundation
import HearthTestSupport
import Testing

/// The stock `firebase-admin` Python package (from PyPI, in the test venv) against the real
/// server through `FIREBASE_AUTH_EMULATOR_HOST`: user management and ID token verification.
@Suite struct AccountsFirebaseAdminTests {
    @Test func firebaseAdminManagesUsersAndVerifiesHearthIDTokens() throws {
        let server = try Accounts.server(testClock: false)
        let script = testToolingDirectory.appendingPathComponent("firebase_admin_accounts.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: testPython)
        process.arguments = [script, "demo-project", Accounts.apiKey]
        var environment = ProcessInfo.processInfo.environment
        environment["FIREBASE_AUTH_EMULATOR_HOST"] = "127.0.0.1:\(server.port)"
        environment["PYTHONUNBUFFERED"] = "1"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "firebase-admin script failed:\n\(output)")
        #expect(output.contains("ok: verify_id_token(check_revoked=True)"), "\(output)")
        #expect(output.contains("ALL OK"), "\(output)")
    }
}
