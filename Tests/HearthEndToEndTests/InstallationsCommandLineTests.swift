import Foundation
import HearthTestSupport
import Testing

/// `hearth installations ...` and `hearth webhooks ...` on a running server's data.
@Suite struct InstallationsCommandLineTests {
    private func hearth(_ arguments: [String], data: URL) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: HearthServerProcess.binaryPath)
        process.arguments = arguments + ["--data", data.path]
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test func installationsAreListedShownAndDeletedAndWebhooksManagedFromTheCommandLine() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        let data = server.dataDirectory
        let installation = try client.register(app: Seed.iosApp)

        let listed = try hearth(["installations", "list", "--project", "demo-project"], data: data)
        #expect(listed.status == 0)
        #expect(listed.output.contains(installation.fid))
        #expect(listed.output.contains(Seed.iosApp))

        let added = try hearth(
            [
                "webhooks", "add", "--project", "demo-project", "--url", "http://127.0.0.1:9/hook", "--description",
                "crm",
            ],
            data: data
        )
        #expect(added.status == 0)
        let webhookID = try #require(added.output.split(separator: "\t").first.map(String.init))
        #expect(added.output.contains("whsec_"))
        #expect(try hearth(["webhooks", "list", "--project", "demo-project"], data: data).output.contains(webhookID))
        #expect(
            (try client.admin("GET", "installationWebhooks").json["webhooks"] as? [[String: Any]])?.first?["webhookId"]
                as? String == webhookID
        )

        let deleted = try hearth(
            ["installations", "delete", "--project", "demo-project", installation.fid],
            data: data
        )
        #expect(deleted.status == 0)
        #expect(try client.generateToken(installation).status == 404)
        let shown = try hearth(["installations", "show", "--project", "demo-project", installation.fid], data: data)
        #expect(shown.output.contains("state\tdeleted"))
        #expect(shown.output.contains("cause\tadmin"))
        #expect(shown.output.contains("delivery\t\(webhookID)"))
        let pending = try hearth(["webhooks", "deliveries", "--project", "demo-project"], data: data)
        #expect(pending.output.contains("\(webhookID)\t\(installation.fid)\tpending"))

        let again = try hearth(["installations", "delete", "--project", "demo-project", installation.fid], data: data)
        #expect(again.status != 0)
        #expect(again.error.contains("already deleted"))
        let unknown = try hearth(
            ["installations", "show", "--project", "demo-project", generateClientFID()],
            data: data
        )
        #expect(unknown.status != 0)

        #expect(try hearth(["webhooks", "remove", "--project", "demo-project", webhookID], data: data).status == 0)
        #expect(try hearth(["webhooks", "deliveries", "--project", "demo-project"], data: data).output.isEmpty)
    }
}
