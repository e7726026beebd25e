import Foundation
import HearthBase
import HearthTestSupport
import Testing

/// The first lines of `hearth serve` say what to do next, and what they say works.
@Suite struct StartupGuideTests {
    private func hearth(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: HearthServerProcess.binaryPath)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: printed, as: UTF8.self)
    }

    @Test func theFirstLinesSayWhereEmailsGoAndHowToPointSDKsAndBothWork() throws {
        let server = try HearthServerProcess()
        let address = "127.0.0.1:\(server.port)"
        #expect(server.waitForOutput("FIREBASE_AUTH_EMULATOR_HOST=\(address)"))
        let lines = server.output
        let guide = try #require(lines.prefix(8).first { $0.contains("emails:") })
        #expect(lines.prefix(8).contains { $0.contains("FIREBASE_AUTH_EMULATOR_HOST=\(address)") })
        let listing = "http://\(address)/emulator/v1/projects/demo-project/oobCodes"
        #expect(guide.contains(listing))
        // The guide prints a database URL with its user-info hidden, so it is run with the real one.
        let printedFlags = server.storeArguments.map { $0.contains("://") ? "\(RedactedURL($0))" : $0 }
        #expect(guide.contains("hearth mail list --project demo-project " + printedFlags.joined(separator: " ")))

        // Doing what they say: a code appears in the listing, the message in `hearth mail list`.
        let client = server.client()
        _ = try client.call("accounts:signUp", ["email": "new@example.com", "password": "password-1"])
        #expect(try client.sendOobCode(["requestType": "PASSWORD_RESET", "email": "new@example.com"]).status == 200)
        #expect(try client.pendingCode("PASSWORD_RESET", for: "new@example.com") != nil)
        let listed = try hearth(["mail", "list", "--project", "demo-project"] + server.storeArguments)
        #expect(listed.contains("new@example.com"))
    }

    @Test func everyCommandLineTablePrintsTimesAsISO8601() throws {
        let server = try HearthServerProcess()
        let data = server.storeArguments + ["--project", "demo-project"]
        _ = try hearth(["admin-key", "create", "--label", "ci"] + data)
        _ = try server.client().register()
        server.stop()
        let iso = #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/#
        let keys = try hearth(["admin-key", "list"] + data)
        let row = try #require(keys.split(separator: "\n").first { $0.hasSuffix("ci") })
        #expect(row.contains(#/created \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\tnever used/#))
        let installations = try hearth(["installations", "list"] + data)
        #expect(installations.contains(iso))
        // No column anywhere is a bare epoch number.
        for table in [keys, installations] { #expect(!table.contains(#/\b1\d{9}\b/#)) }
    }
}
