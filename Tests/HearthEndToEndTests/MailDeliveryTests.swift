import Foundation
import HearthTestSupport
import Testing

/// Mail from the real `hearth` binary to a real SMTP server (the test tooling's sink), read
/// back with Python's own MIME parser.
@Suite struct MailDeliveryTests {
    static let admin = [("Authorization", "Bearer owner")]
    static let fastRetries = ["--mail-retry-base", "200", "--mail-retry-cap", "1000", "--mail-poll", "100"]

    @discardableResult
    static func sendTest(
        _ client: TestHTTPClient,
        _ body: [String: Any],
        project: String = "demo-project",
        headers: [(String, String)] = admin
    ) throws -> [String: Any] {
        let response = try client.json("POST", "/hearth/v1/projects/\(project)/mail:sendTest", body, headers: headers)
        #expect(response.status == 200, "\(response.text)")
        return response.json
    }

    @Test func aMessageArrivesWithItsHeadersBothBodiesAndTheNegotiatedLanguage() throws {
        let sink = try SMTPSink()
        let server = try HearthServerProcess(arguments: ["--smtp", sink.url] + Self.fastRetries)
        let client = server.client()
        let queued = try Self.sendTest(
            client,
            ["to": "ada@example.com", "kind": "PASSWORD_RESET", "displayName": "Ada"],
            headers: Self.admin + [("Accept-Language", "de-DE, it-CH;q=0.8, fa;q=0.5")]
        )
        #expect(queued["language"] as? String == "it")
        let messageID = try #require(queued["messageId"] as? String)
        let received = try #require(sink.waitForMessageIDs([messageID]).first)

        #expect(received["envelopeTo"] as? [String] == ["ada@example.com"])
        #expect(received["envelopeFrom"] as? String == "noreply@demo-project.hearth.local")
        #expect(received.header("Subject") == "Reimposta la password di Demo Project")
        #expect(received.header("From") == "Demo Project <noreply@demo-project.hearth.local>")
        #expect(received.header("To") == "Ada <ada@example.com>")
        #expect(received.header("Content-Language") == "it")
        #expect(received.header("MIME-Version") == "1.0")
        #expect(received.header("Date")?.hasSuffix("+0000") == true)
        #expect(received["contentType"] as? String == "multipart/alternative")
        let parts = try #require(received["parts"] as? [[String: Any]])
        #expect(parts.map { $0["contentType"] as? String } == ["text/plain", "text/html"])
        #expect(parts.allSatisfy { $0["charset"] as? String == "utf-8" })
        #expect((received["defects"] as? [Any])?.isEmpty == true)
        #expect(received["bareLineFeeds"] as? Int == 0)
        #expect((received["maxLineLength"] as? Int ?? 999) <= 78)

        let link =
            "\(server.baseURL)/__/auth/action?mode=resetPassword&oobCode=SAMPLE-NOT-A-REAL-CODE&apiKey=demo-api-key"
        let text = try #require(received["text"] as? String)
        #expect(text.hasPrefix("Ciao Ada,\n"))
        #expect(text.contains("\n\(link)\n"))
        #expect(text.contains("Il link scade tra 1 ora."))
        let html = try #require(received["html"] as? String)
        #expect(html.contains("<html lang=\"it\" dir=\"ltr\">"))
        #expect(html.contains("href=\"\(link.replacing("&", with: "&amp;"))\""))

        // The sink has the message a moment before the outcome is recorded.
        let path = "/hearth/v1/projects/demo-project/mail/messages/\(queued["id"] as? String ?? "")"
        var stored = try client.request("GET", path, headers: Self.admin)
        #expect(
            try eventually {
                stored = try client.request("GET", path, headers: Self.admin)
                return stored.json["state"] as? String == "sent"
            }
        )
        #expect(stored.json["transport"] as? String == "smtp")
        #expect(stored.json["attempts"] as? Int == 1)
    }

    @Test func persianMailIsRightToLeftAndHostileValuesStayText() throws {
        let sink = try SMTPSink()
        // A project with its own SMTP server, sender and a hostile app name, from a configuration file.
        let configuration = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hearth-mail-\(UUID().uuidString).json"
        )
        let project: [String: Any] = [
            "projectId": "hostile-app", "projectNumber": "424242", "apiKeys": ["hostile-key"],
            "settings": [
                "appName": "<script>alert('app')</script> & Co", "defaultLanguage": "fa",
                "mail": ["from": "Support <support@hostile.example>", "smtp": ["url": sink.url, "startTls": "off"]],
            ],
        ]
        try JSONSerialization.data(withJSONObject: ["projects": [project]]).write(to: configuration)
        defer { try? FileManager.default.removeItem(at: configuration) }
        let server = try HearthServerProcess(arguments: ["--config", configuration.path] + Self.fastRetries)
        let credential = try Self.adminKey(server: server, project: "hostile-app")

        let queued = try Self.sendTest(
            server.client(),
            ["to": "ada@example.com", "kind": "VERIFY_EMAIL", "displayName": "<img src=x onerror=alert(1)> \"Ada\""],
            project: "hostile-app",
            headers: [("Authorization", "Bearer \(credential)")]
        )
        #expect(queued["language"] as? String == "fa")
        let received = try #require(sink.waitForMessageIDs([queued["messageId"] as? String ?? ""]).first)
        #expect(received.header("Subject") == "تأیید نشانی ایمیل برای <script>alert('app')</script> & Co")
        #expect(received.header("From") == "Support <support@hostile.example>")
        #expect(received.header("To") == "\"<img src=x onerror=alert(1)> \\\"Ada\\\"\" <ada@example.com>")
        #expect(received.header("Content-Language") == "fa")
        let html = try #require(received["html"] as? String)
        #expect(html.contains("<html lang=\"fa\" dir=\"rtl\">"))
        #expect(html.contains("<body dir=\"rtl\""))
        #expect(html.contains("text-align:right"))
        #expect(!html.contains("<script>") && !html.contains("<img"))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt; &quot;Ada&quot;"))
        #expect(html.contains("&lt;script&gt;alert(&#39;app&#39;)&lt;/script&gt; &amp; Co"))
        let text = try #require(received["text"] as? String)
        #expect(text.hasPrefix("سلام <img src=x onerror=alert(1)> \"Ada\"،"))
        #expect(text.contains("۳ روز"))
    }

    @Test func anSMTPOutageDelaysMailButLosesNoneAndTheServerKeepsAnswering() throws {
        let sink = try SMTPSink()
        sink.stop()
        let server = try HearthServerProcess(arguments: ["--smtp", sink.url] + Self.fastRetries)
        let client = server.client()
        var messageIDs: Set<String> = []
        for index in 0..<8 {
            let queued = try Self.sendTest(
                client,
                ["to": "user\(index)@example.com", "languageCode": ["en", "it", "fa"][index % 3]]
            )
            messageIDs.insert(try #require(queued["messageId"] as? String))
        }
        // Down: every message waits, retried, with the error on record; requests are answered.
        // (Retries come every 200 ms or so; polled, so a loaded machine only makes it slower.)
        var messages: [[String: Any]] = []
        _ = try eventually {
            messages = try Self.outboxMessages(client)
            return messages.count == 8 && messages.allSatisfy { ($0["attempts"] as? Int ?? 0) >= 2 }
        }
        #expect(try client.request("GET", "/healthz").status == 200)
        #expect(messages.count == 8)
        #expect(messages.allSatisfy { ["queued", "sending"].contains($0["state"] as? String) })
        #expect(messages.allSatisfy { ($0["attempts"] as? Int ?? 0) >= 2 })
        #expect(messages.contains { ($0["lastError"] as? String)?.isEmpty == false })

        try sink.start()
        let received = sink.waitForMessageIDs(messageIDs)
        let receivedIDs = received.compactMap(\.messageID)
        #expect(Set(receivedIDs) == messageIDs)
        #expect(receivedIDs.count == messageIDs.count, "each message arrived once")
        #expect(try Self.waitForMessages(client, state: "sent", count: 8).count == 8)
    }

    @Test func killingTheServerWithMailQueuedAndInFlightLosesNone() throws {
        // A slow server: each message is held for a while, so some are in flight at the kill.
        let sink = try SMTPSink(options: ["--delay", "0.7"])
        let arguments = ["--smtp", sink.url, "--mail-claim", "2000"] + Self.fastRetries
        let server = try HearthServerProcess(arguments: arguments)
        let client = server.client()
        var messageIDs: Set<String> = []
        for index in 0..<10 {
            let queued = try Self.sendTest(client, ["to": "user\(index)@example.com"])
            messageIDs.insert(try #require(queued["messageId"] as? String))
        }
        let deadline = Date().addingTimeInterval(20)
        var states: [String] = []
        while !states.contains("sending") && Date() < deadline {
            states = try Self.outboxMessages(client).compactMap { $0["state"] as? String }
        }
        #expect(states.contains("sending"))
        // More messages queued behind the busy workers, then the kill.
        for index in 10..<14 {
            let queued = try Self.sendTest(client, ["to": "user\(index)@example.com"])
            messageIDs.insert(try #require(queued["messageId"] as? String))
        }
        server.kill()
        #expect(sink.messages().count < messageIDs.count, "some mail was still waiting at the kill")

        try server.restart()
        let received = sink.waitForMessageIDs(messageIDs, timeout: 60)
        // At least once: a message cut off mid-send may arrive twice, with the same Message-ID.
        #expect(Set(received.compactMap(\.messageID)) == messageIDs)
        let sent = try Self.waitForMessages(server.client(), state: "sent", count: messageIDs.count)
        #expect(Set(sent.compactMap { $0["messageId"] as? String }) == messageIDs)
    }

    /// The seed project's outbox messages, as the admin API lists them (`query` filters).
    static func outboxMessages(_ client: TestHTTPClient, query: String = "") throws -> [[String: Any]] {
        let list = try client.request("GET", "/hearth/v1/projects/demo-project/mail/messages\(query)", headers: admin)
        return list.json["messages"] as? [[String: Any]] ?? []
    }

    /// Polls the admin API until `count` messages of the seed project are in `state`.
    static func waitForMessages(
        _ client: TestHTTPClient,
        state: String,
        count: Int,
        timeout: TimeInterval = 20
    ) throws -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let messages = try outboxMessages(client, query: "?state=\(state)&pageSize=500")
            if messages.count >= count || Date() > deadline { return messages }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// Makes an admin credential with `hearth admin-key create` on the server's data.
    static func adminKey(server: HearthServerProcess, project: String) throws -> String {
        let output = try HearthCommand.output(
            [
                "admin-key", "create", "--project", project,
            ] + server.storeArguments
        )
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
