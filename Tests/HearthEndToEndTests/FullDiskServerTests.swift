import Foundation
import HearthTestSupport
import Testing

/// The real binary with its data directory on a small tmpfs that fills up under it: while the
/// store cannot write, requests that need a write answer 503 (never another 5xx), and what was
/// acknowledged before and after is all there; emails delivered while the disk is full are
/// recorded once it frees, so none is sent twice.
@Suite(.enabled(if: !TestDatabase.runsOnPostgreSQL, "the disk that fills is the SQLite store's"))
struct FullDiskServerTests {
    /// Claims lapse after 4 s (and a send may take 3 s of it), so the messages delivered while
    /// the disk is full could be claimed and sent again once it frees, were their deliveries
    /// forgotten.
    static let claimSeconds = 4.0
    static let mailOptions = [
        "--mail-retry-base", "200", "--mail-retry-cap", "500", "--mail-poll", "100",
        "--mail-claim", String(Int(claimSeconds * 1_000)),
    ]

    @Test("a full disk: only 200 and 503 answers, every acknowledged write found, every email delivered once")
    func aFullDiskRefusesWritesWith503AndLosesOrRepeatsNothing() throws {
        guard let disk = try SmallDisk.mount(megabytes: 16, label: "full disk under the server") else { return }
        defer { disk.unmount() }
        let sink = try SMTPSink(options: ["--delay", "1"])  // each message is sent while the disk fills
        let server = try HearthServerProcess(
            arguments: ["--smtp", sink.url] + Self.mailOptions,
            dataDirectory: disk.directory.appendingPathComponent("data")
        )
        defer { server.stop() }
        let client = server.client()

        var installations = try (0..<10).map { _ in try client.register() }
        // One message for each of the two delivery workers, which start sending at once.
        var acknowledgedMessages: Set<String> = []
        for index in 0..<2 {
            acknowledgedMessages.insert(try #require(try Self.sendTestMessage(client, index).messageID))
        }
        let inFlight = acknowledgedMessages
        let claimsLapse = Date().addingTimeInterval(Self.claimSeconds + 0.5)

        // The disk fills while they are being sent. Writes go on until the store has refused
        // some, the sink has accepted both messages and their claims have lapsed.
        disk.fill()
        var statuses: [Int: Int] = [:]
        var deliveredAt: Date?
        var index = 2
        let fullUntil = Date().addingTimeInterval(30)
        while Date() < fullUntil {
            let status: Int
            if index.isMultiple(of: 2) {
                let sent = try Self.sendTestMessage(client, index)
                status = sent.status
                if let messageID = sent.messageID { acknowledgedMessages.insert(messageID) }
            } else {
                let response = try Self.registration(client)
                status = response.status
                if status == 200 { installations.append(try Self.registered(response)) }
            }
            statuses[status, default: 0] += 1
            index += 1
            if deliveredAt == nil, inFlight.isSubset(of: Set(sink.messages().compactMap(\.messageID))) {
                deliveredAt = Date()
            }
            if statuses[503, default: 0] >= 20, deliveredAt != nil, Date() > claimsLapse { break }
            usleep(2_000)
        }
        disk.free()

        // Recovery: writes are acknowledged again without a restart.
        var recovered = false
        let deadline = Date().addingTimeInterval(30)
        while !recovered && Date() < deadline {
            let response = try Self.registration(client)
            if response.status == 200 {
                installations.append(try Self.registered(response))
                recovered = true
            } else {
                #expect(response.status == 503, "\(response.status) \(response.text)")
                usleep(100_000)
            }
        }
        #expect(recovered, "writes are acknowledged again once the disk frees")
        for index in index..<index + 5 {
            acknowledgedMessages.insert(try #require(try Self.sendTestMessage(client, index).messageID))
        }

        // Every acknowledged email is recorded as sent; only then can a repeat be ruled out.
        let sent = try Self.waitUntilSent(acknowledgedMessages, client: client)
        let received = sink.messages().compactMap(\.messageID)
        let duplicated = received.count - Set(received).count
        var found = 0
        for installation in installations where try client.generateToken(installation).status == 200 {
            found += 1
        }
        // Each cause is logged once per episode (the disk may fill twice: a commit can still
        // find room in the log file for a while), not at every refusal or checkpoint.
        let causeReports = server.output.filter {
            $0.contains("the store cannot write") || $0.contains("background checkpoint failed")
        }.count
        print(
            "full disk under the server: cause reports \(causeReports), answers while full \(statuses.sorted { $0.key < $1.key }); "
                + "installations acknowledged \(installations.count), found \(found); "
                + "emails acknowledged \(acknowledgedMessages.count), recorded sent \(sent.count), "
                + "delivered while full \(deliveredAt == nil ? 0 : inFlight.count), received \(received.count), "
                + "duplicated \(duplicated)"
        )
        #expect(Set(statuses.keys).isSubset(of: [200, 503]), "only 200 and 503 while full: \(statuses)")
        #expect(statuses[503, default: 0] >= 20, "the disk was full")
        #expect(deliveredAt != nil, "the messages in flight were delivered while the disk was full")
        #expect(found == installations.count)
        #expect(sent == acknowledgedMessages)
        #expect(Set(received).isSuperset(of: acknowledgedMessages))
        #expect(duplicated == 0)
        #expect((1...4).contains(causeReports), "\(causeReports) reports of the cause")
    }

    private static func sendTestMessage(_ client: TestHTTPClient, _ index: Int) throws -> (
        status: Int, messageID: String?
    ) {
        let response = try client.json(
            "POST",
            "/hearth/v1/projects/\(Seed.project)/mail:sendTest",
            ["to": "full-disk-\(index)@example.com"],
            headers: [Seed.admin]
        )
        #expect([200, 503].contains(response.status), "\(response.status) \(response.text)")
        return (response.status, response.status == 200 ? response.json["messageId"] as? String : nil)
    }

    private static func registration(_ client: TestHTTPClient) throws -> TestResponse {
        try client.json(
            "POST",
            "/v1/projects/\(Seed.project)/installations",
            ["fid": generateClientFID(), "appId": Seed.webApp, "authVersion": "FIS_v2", "sdkVersion": "w:0.6.24"],
            headers: [("x-goog-api-key", Seed.apiKey)]
        )
    }

    private static func registered(_ response: TestResponse) throws -> Registered {
        Registered(
            fid: try #require(response.json["fid"] as? String),
            refreshToken: try #require(response.json["refreshToken"] as? String),
            token: try #require((response.json["authToken"] as? [String: Any])?["token"] as? String)
        )
    }

    /// Waits until the outbox lists every one of `messageIDs` as sent; answers those it does.
    private static func waitUntilSent(_ messageIDs: Set<String>, client: TestHTTPClient) throws -> Set<String> {
        let deadline = Date().addingTimeInterval(60)
        var sent: Set<String> = []
        repeat {
            let listing = try client.request(
                "GET",
                "/hearth/v1/projects/\(Seed.project)/mail/messages?state=sent&pageSize=500",
                headers: [Seed.admin]
            )
            let messages = listing.json["messages"] as? [[String: Any]] ?? []
            sent = Set(messages.compactMap { $0["messageId"] as? String }).intersection(messageIDs)
            if sent == messageIDs { break }
            usleep(100_000)
        } while Date() < deadline
        return sent
    }
}
