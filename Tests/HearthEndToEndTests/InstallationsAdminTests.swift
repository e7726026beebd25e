import Foundation
import HearthTestSupport
import Testing

/// Token verification for backends, server-side deletion and webhook subscriptions.
@Suite struct InstallationsAdminTests {
    private func verify(_ client: TestHTTPClient, _ token: String, project: String = Seed.project) throws
        -> TestResponse
    {
        try client.json(
            "POST",
            "/v1/projects/\(project)/installations:verifyToken",
            ["token": token],
            headers: [Seed.admin]
        )
    }

    @Test func aTokenVerifiesUntilItsInstallationIsDeletedAndFailsRightAfter() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        let installation = try client.register(app: Seed.iosApp)
        let verified = try verify(client, installation.token)
        #expect(verified.status == 200)
        #expect(verified.json["fid"] as? String == installation.fid)
        #expect(verified.json["appId"] as? String == Seed.iosApp)
        #expect(verified.json["projectNumber"] as? String == Seed.number)
        #expect(verified.json["expireTime"] is String)
        // A token from authTokens:generate verifies too.
        let generated = try #require(try client.generateToken(installation).json["token"] as? String)
        #expect(try verify(client, generated).status == 200)

        #expect(try client.deleteInstallation(installation).status == 200)
        for token in [installation.token, generated] {
            let refused = try verify(client, token)
            #expect(refused.status == 400)
            #expect(refused.errorStatus == "INVALID_ARGUMENT")
            #expect(refused.errorMessage?.hasPrefix("INSTALLATION_DELETED") == true)
        }
    }

    @Test func expiredTamperedAndOtherProjectsTokensFailVerification() throws {
        let server = try HearthServerProcess.withTwoProjects(["--test-clock"])
        let client = server.client()
        let installation = try client.register()
        let foreign = try client.register(app: Seed.otherApp, project: Seed.otherProject, apiKey: Seed.otherAPIKey)

        let otherProject = try verify(client, foreign.token)
        #expect(otherProject.status == 400)
        #expect(otherProject.errorMessage?.hasPrefix("INVALID_INSTALLATION_TOKEN") == true)

        var tampered = Array(installation.token)
        let index = tampered.count - 5
        tampered[index] = tampered[index] == "A" ? "B" : "A"
        let badSignature = try verify(client, String(tampered))
        #expect(badSignature.status == 400)
        #expect(badSignature.errorMessage?.hasPrefix("INVALID_INSTALLATION_TOKEN") == true)

        try client.advanceClock(days: 8)
        let expired = try verify(client, installation.token)
        #expect(expired.status == 400)
        #expect(expired.errorMessage?.hasPrefix("INSTALLATION_TOKEN_EXPIRED") == true)
        // A fresh token of the same installation verifies again.
        let fresh = try #require(try client.generateToken(installation).json["token"] as? String)
        #expect(try verify(client, fresh).status == 200)
    }

    @Test func serverDeletionIs200ThenAlready409AndUnknown404() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        let installation = try client.register()
        let path = "/v1/project/demo-project/instanceId/\(installation.fid)"
        let deleted = try client.request("DELETE", path, headers: [Seed.admin])
        #expect(deleted.status == 200)
        #expect(deleted.text == "{}")
        #expect(try client.generateToken(installation).status == 404)
        let again = try client.request("DELETE", path, headers: [Seed.admin])
        #expect(again.status == 409)
        let unknown = try client.request(
            "DELETE",
            "/v1/project/demo-project/instanceId/\(generateClientFID())",
            headers: [Seed.admin]
        )
        #expect(unknown.status == 404)
        let shown = try client.admin("GET", "installations/\(installation.fid)")
        #expect(shown.json["state"] as? String == "DELETED")
        #expect(shown.json["cause"] as? String == "admin")
        let tombstones = try client.admin("GET", "installationTombstones").json["tombstones"] as? [[String: Any]]
        #expect(tombstones?.map { $0["fid"] as? String } == [installation.fid])
    }

    @Test func webhooksAreSubscribedListedAndRemovedAndEachDeletionQueuesOneDeliveryPerSubscriber() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        let made = try client.admin(
            "POST",
            "installationWebhooks",
            ["url": "http://127.0.0.1:9/a", "description": "analytics"]
        )
        #expect(made.status == 200)
        let secret = try #require(made.json["secret"] as? String)
        #expect(secret.hasPrefix("whsec_"))
        let chosen = try client.admin(
            "POST",
            "installationWebhooks",
            ["url": "http://127.0.0.1:9/b", "secret": "a-secret-of-my-own-choosing"]
        )
        #expect(chosen.json["secret"] as? String == "a-secret-of-my-own-choosing")
        let listed = try client.admin("GET", "installationWebhooks").json["webhooks"] as? [[String: Any]] ?? []
        #expect(listed.compactMap { $0["url"] as? String } == ["http://127.0.0.1:9/a", "http://127.0.0.1:9/b"])
        #expect(listed.allSatisfy { $0["secret"] == nil })

        let installation = try client.register()
        #expect(try client.deleteInstallation(installation).status == 200)
        let tombstones = try client.admin("GET", "installationTombstones").json["tombstones"] as? [[String: Any]] ?? []
        let deliveries = tombstones.first?["deliveries"] as? [[String: Any]] ?? []
        #expect(
            Set(deliveries.compactMap { $0["webhookId"] as? String })
                == Set(listed.compactMap { $0["webhookId"] as? String })
        )
        #expect(deliveries.allSatisfy { $0["state"] as? String == "pending" })
        let pending =
            try client.admin("GET", "installationDeliveries?state=pending").json["deliveries"] as? [[String: Any]]
        #expect(pending?.count == 2)

        let id = try #require(made.json["webhookId"] as? String)
        #expect(try client.admin("DELETE", "installationWebhooks/\(id)").status == 200)
        let remaining = try client.admin("GET", "installationWebhooks").json["webhooks"] as? [[String: Any]]
        #expect(remaining?.count == 1)
        let stillPending =
            try client.admin("GET", "installationDeliveries?state=pending").json["deliveries"] as? [[String: Any]]
        #expect(stillPending?.count == 1)
    }

    @Test func listsArePagedWithATokenUntilTheEnd() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        var made: Set<String> = []
        for _ in 0..<5 { made.insert(try client.register().fid) }
        var seen: [String] = []
        var token: String?
        repeat {
            let query = "installations?pageSize=2" + (token.map { "&pageToken=\($0)" } ?? "")
            let page = try client.admin("GET", query).json
            seen += (page["installations"] as? [[String: Any]] ?? []).compactMap { $0["fid"] as? String }
            token = page["nextPageToken"] as? String
        } while token != nil
        #expect(seen.count == 5)
        #expect(Set(seen) == made)
        #expect(seen == seen.sorted())
    }
}
