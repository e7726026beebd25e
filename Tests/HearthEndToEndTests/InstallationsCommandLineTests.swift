import Foundation
import HearthTestSupport
import Testing

/// `hearth installations ...` and `hearth webhooks ...` on a running server's data.
@Suite struct InstallationsCommandLineTests {
    @Test func installationsAreListedShownAndDeletedAndWebhooksManagedFromTheCommandLine() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        let data = server.storeArguments
        let installation = try client.register(app: Seed.iosApp)

        let listed = try HearthCommand.run(["installations", "list", "--project", "demo-project"] + data)
        #expect(listed.status == 0)
        #expect(listed.output.contains(installation.fid))
        #expect(listed.output.contains(Seed.iosApp))

        let added = try HearthCommand.run(
            [
                "webhooks", "add", "--project", "demo-project", "--url", "http://127.0.0.1:9/hook", "--description",
                "crm",
            ] + data
        )
        #expect(added.status == 0)
        let webhookID = try #require(added.output.split(separator: "\t").first.map(String.init))
        #expect(added.output.contains("whsec_"))
        #expect(
            try HearthCommand.run(["webhooks", "list", "--project", "demo-project"] + data).output
                .contains(webhookID)
        )
        #expect(
            (try client.admin("GET", "installationWebhooks").json["webhooks"] as? [[String: Any]])?.first?["webhookId"]
                as? String == webhookID
        )

        let deleted = try HearthCommand.run(
            ["installations", "delete", "--project", "demo-project", installation.fid] + data
        )
        #expect(deleted.status == 0)
        #expect(try client.generateToken(installation).status == 404)
        let shown = try HearthCommand.run(
            [
                "installations", "show", "--project", "demo-project", installation.fid,
            ] + data
        )
        #expect(shown.output.contains("state\tdeleted"))
        #expect(shown.output.contains("cause\tadmin"))
        #expect(shown.output.contains("delivery\t\(webhookID)"))
        let pending = try HearthCommand.run(
            [
                "webhooks", "deliveries", "--project", "demo-project",
            ] + data
        )
        #expect(pending.output.contains("\(webhookID)\t\(installation.fid)\tpending"))

        let again = try HearthCommand.run(
            [
                "installations", "delete", "--project", "demo-project", installation.fid,
            ] + data
        )
        #expect(again.status != 0)
        #expect(again.errors.contains("already deleted"))
        let unknown = try HearthCommand.run(
            ["installations", "show", "--project", "demo-project", generateClientFID()] + data
        )
        #expect(unknown.status != 0)

        #expect(
            try HearthCommand.run(["webhooks", "remove", "--project", "demo-project", webhookID] + data)
                .status == 0
        )
        #expect(
            try HearthCommand.run(["webhooks", "deliveries", "--project", "demo-project"] + data).output
                .isEmpty
        )
    }
}
