import Foundation
import HearthTestSupport
import Testing

/// The stock `firebase-admin` Python package generates email-action links against the real
/// server (`FIREBASE_AUTH_EMULATOR_HOST`), and every link it gets works.
@Suite struct EmailActionsFirebaseAdminTests {
    @Test func firebaseAdminGeneratesLinksThatWorkAndHearsRefusals() throws {
        let server = try HearthServerProcess()
        let script = testToolingDirectory.appendingPathComponent("firebase_admin_email_links.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: testPython)
        process.arguments = [script, "demo-project", "demo-api-key"]
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
        #expect(output.contains("ok: unauthorized continue URL refused: UNAUTHORIZED_DOMAIN"), "\(output)")
        #expect(output.contains("ALL OK"), "\(output)")
    }
}
