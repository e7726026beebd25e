import Foundation
import HearthCrypto
import HearthTestSupport
import Testing

/// Inactivity expiry with a moved clock, last-seen coalescing, deletion webhooks delivered to
/// a real receiver and retried, and acknowledged creates surviving SIGKILL.
@Suite struct InstallationsLifecycleTests {
    @Test func theSweeperDeletesAnInstallationUnseenFor270DaysAndItsWebhookArrivesAfterA500() throws {
        let receiver = try WebhookReceiver(failFirst: 1)
        // The sweeper runs every 200 ms and a failed webhook is retried after 300 ms.
        let server = try HearthServerProcess(arguments: [
            "--test-clock", "--installation-sweep-interval-ms", "200", "--webhook-retry-base-ms", "300",
        ])
        let client = server.client()
        let secret = "the-receiver's-shared-secret"
        let hook = try client.admin("POST", "installationWebhooks", ["url": receiver.url, "secret": secret])
        #expect(hook.status == 200)
        let idle = try client.register(app: Seed.androidApp)
        let busy = try client.register(app: Seed.webApp)

        try client.advanceClock(days: 200)
        #expect(try client.generateToken(busy).status == 200)
        try client.advanceClock(days: 71)

        #expect(
            try eventually {
                try client.admin("GET", "installations/\(idle.fid)").json["state"] as? String == "DELETED"
            }
        )
        let tombstone = try client.admin("GET", "installations/\(idle.fid)").json
        #expect(tombstone["cause"] as? String == "inactivity")
        #expect(tombstone["appId"] as? String == Seed.androidApp)
        #expect(try client.generateToken(idle).status == 404)
        // Seen 71 days ago: kept.
        #expect(try client.admin("GET", "installations/\(busy.fid)").json["state"] as? String == "ACTIVE")
        #expect(try client.generateToken(busy).status == 200)

        let requests = receiver.requests(count: 2)
        try #require(requests.count == 2)
        #expect(requests.map { $0["status"] as? Int } == [500, 200])
        let now = try client.serverNowSeconds()
        for request in requests {
            let headers = Dictionary(
                uniqueKeysWithValues: (request["headers"] as? [String: String] ?? [:]).map {
                    ($0.key.lowercased(), $0.value)
                }
            )
            let body = Array((request["body"] as? String ?? "").utf8)
            #expect(headers["hearth-event"] == "installation.deleted")
            #expect(headers["hearth-delivery-id"]?.hasSuffix(":\(idle.fid)") == true)
            let signature = try #require(headers["hearth-signature"])
            #expect(Self.signatureIsValid(signature, secret: secret, body: body, now: now))
            #expect(!Self.signatureIsValid(signature, secret: "wrong", body: body, now: now))
            let event = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
            #expect(event["fid"] as? String == idle.fid)
            #expect(event["appId"] as? String == Seed.androidApp)
            #expect(event["projectNumber"] as? String == Seed.number)
            #expect(event["cause"] as? String == "inactivity")
            #expect(event["deletedAt"] as? String == tombstone["deleteTime"] as? String)
        }
        #expect(
            requests[0]["headers"].flatMap { ($0 as? [String: String])?["Hearth-Delivery-Id"] }
                == requests[1]["headers"].flatMap { ($0 as? [String: String])?["Hearth-Delivery-Id"] }
        )

        // The delivery state is recorded: delivered on the second attempt.
        #expect(
            try eventually {
                let deliveries =
                    try client.admin("GET", "installations/\(idle.fid)").json["deliveries"] as? [[String: Any]]
                return deliveries?.first?["state"] as? String == "delivered"
            }
        )
        let delivery = try #require(
            (try client.admin("GET", "installationTombstones").json["tombstones"] as? [[String: Any]])?.first?[
                "deliveries"
            ]
                as? [[String: Any]]
        ).first
        #expect(delivery?["attempts"] as? Int == 2)
        #expect(delivery?["lastStatus"] as? Int == 200)
        #expect(delivery?["deliverTime"] is String)
    }

    @Test func aWebhookThatAnswersARedirectIsRetriedAndTheRedirectIsNeverFollowed() throws {
        let elsewhere = try WebhookReceiver()
        let redirecting = try WebhookReceiver(redirectTo: elsewhere.url)
        let server = try HearthServerProcess(arguments: ["--webhook-retry-base-ms", "200"])
        let client = server.client()
        #expect(try client.admin("POST", "installationWebhooks", ["url": redirecting.url]).status == 200)
        let installation = try client.register()
        #expect(try client.deleteInstallation(installation).status == 200)

        // Two attempts reached the redirecting receiver, so the first one's answer was taken
        // (and a followed redirect would have been sent before it was).
        let attempts = redirecting.requests(count: 2)
        #expect(attempts.count >= 2)
        #expect(attempts.allSatisfy { $0["status"] as? Int == 302 && $0["method"] as? String == "POST" })
        let followed = elsewhere.requests(count: 1, timeout: 0)
        #expect(followed.isEmpty, "the redirect target received \(followed)")
        #expect(
            try eventually {
                let deliveries =
                    try client.admin("GET", "installations/\(installation.fid)").json["deliveries"] as? [[String: Any]]
                return (deliveries?.first?["attempts"] as? Int ?? 0) >= 2
            }
        )
        let delivery = try #require(
            (try client.admin("GET", "installations/\(installation.fid)").json["deliveries"] as? [[String: Any]])?.first
        )
        #expect(delivery["state"] as? String == "pending")
        #expect(delivery["lastStatus"] as? Int == 302)
        print(
            "webhook redirect: \(attempts.count) attempts answered 302, \(followed.count) requests at the target, "
                + "delivery \(delivery["state"] ?? "?") after \(delivery["attempts"] ?? "?") attempts"
        )
    }

    /// The documented check a receiver makes: `t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">`,
    /// with `t` within five minutes.
    private static func signatureIsValid(_ header: String, secret: String, body: [UInt8], now: Int64) -> Bool {
        var fields: [String: String] = [:]
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { fields[pair[0]] = pair[1] }
        }
        guard let text = fields["t"], let timestamp = Int64(text), abs(now - timestamp) <= 300,
            let signature = fields["v1"]
        else { return false }
        let expected = HMACSHA256.authenticationCode(key: Array(secret.utf8), message: Array("\(text).".utf8) + body)
        return constantTimeEquals(Hex.decode(signature) ?? [], expected)
    }

    @Test func lastSeenIsRecordedAtMostHourlyForABusyInstallation() throws {
        let server = try HearthServerProcess(arguments: ["--test-clock"])
        let client = server.client()
        let installation = try client.register()
        // The first call reports a new SDK version, which is written (with lastSeen).
        #expect(try client.generateToken(installation).status == 200)
        #expect(
            try eventually {
                try client.admin("GET", "installations/\(installation.fid)").json["sdkVersion"] as? String == "i:11.0.0"
            }
        )
        let created = try client.admin("GET", "installations/\(installation.fid)").json["lastSeenTime"] as? String
        try client.json("POST", "/emulator/v1/clock", ["advanceSeconds": 1_800])
        for _ in 0..<5 { #expect(try client.generateToken(installation).status == 200) }
        // A durable write behind any queued one, then look: nothing was recorded.
        _ = try client.register()
        #expect(try client.admin("GET", "installations/\(installation.fid)").json["lastSeenTime"] as? String == created)

        try client.json("POST", "/emulator/v1/clock", ["advanceSeconds": 1_801])
        #expect(try client.generateToken(installation).status == 200)
        #expect(
            try eventually {
                try client.admin("GET", "installations/\(installation.fid)").json["lastSeenTime"] as? String != created
            }
        )
    }

    @Test func acknowledgedCreatesSurviveSIGKILL() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        let installations = try (0..<40).map { _ in try client.register() }
        server.kill()
        try server.restart()
        let fresh = server.client()
        for installation in installations {
            #expect(try fresh.generateToken(installation).status == 200)
        }
    }
}
