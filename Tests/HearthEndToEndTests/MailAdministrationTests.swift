import Foundation
import HearthTestSupport
import Testing

/// The outbox and templates as admins see them: the admin API, `hearth mail`, the
/// emulator's `oobCodes` list and the log transport of the development seed.
@Suite struct MailAdministrationTests {
    static let admin = [("Authorization", "Bearer owner")]
    static let messages = "/hearth/v1/projects/demo-project/mail/messages"

    @Test func theLogTransportKeepsTheMessageAndLogsWhereToReadItButNotItsLink() throws {
        let server = try HearthServerProcess(arguments: ["--mail-poll", "100"])
        let client = server.client()
        let queued = try MailDeliveryTests.sendTest(client, ["to": "ada@example.com", "kind": "EMAIL_SIGNIN"])
        let id = try #require(queued["id"] as? String)
        #expect(server.waitForOutput("\"mailId\":\"\(id)\"", timeout: 10))
        let line = try #require(server.output.first { $0.contains("\"mailId\":\"\(id)\"") })
        #expect(line.contains("hearth mail show \(id)"))
        #expect(line.contains("GET /emulator/v1/projects/demo-project/oobCodes"))
        #expect(!line.contains("oobCode="))
        #expect(line.contains("\"to\":\"ada@example.com\""))
        let sent = try MailDeliveryTests.waitForMessages(client, state: "sent", count: 1)
        #expect(sent.first?["transport"] as? String == "log")
        // The development seed keeps bodies, so the link stays inspectable.
        let shown = try client.request("GET", "\(Self.messages)/\(id)", headers: Self.admin)
        #expect((shown.json["text"] as? String)?.contains("mode=signIn") == true)
        #expect((shown.json["html"] as? String)?.contains("<html lang=\"en\" dir=\"ltr\">") == true)
    }

    @Test func messagesAreListedPagedAndShownToAdminsOnly() throws {
        let server = try HearthServerProcess(arguments: ["--mail-poll", "100"])
        let client = server.client()
        var ids: [String] = []
        for index in 0..<3 {
            ids.append(
                try #require(MailDeliveryTests.sendTest(client, ["to": "u\(index)@example.com"])["id"] as? String)
            )
        }
        _ = try MailDeliveryTests.waitForMessages(client, state: "sent", count: 3)
        let first = try client.request("GET", "\(Self.messages)?pageSize=2", headers: Self.admin)
        let page = try #require(first.json["messages"] as? [[String: Any]])
        #expect(page.compactMap { $0["id"] as? String } == [ids[2], ids[1]])
        #expect(page.allSatisfy { $0["state"] as? String == "sent" && $0["attempts"] as? Int == 1 })
        let token = try #require(first.json["nextPageToken"] as? String)
        let second = try client.request("GET", "\(Self.messages)?pageSize=2&pageToken=\(token)", headers: Self.admin)
        #expect((second.json["messages"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [ids[0]])
        #expect(second.json["nextPageToken"] == nil)
        // A token of an earlier version, `<createdAt>.<id>`, pages from the same message.
        let earlier = try client.request(
            "GET",
            "\(Self.messages)?pageSize=2&pageToken=1.\(ids[2])",
            headers: Self.admin
        )
        #expect((earlier.json["messages"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [ids[1], ids[0]])

        #expect(try client.request("GET", Self.messages).status == 401)
        #expect(try client.request("GET", Self.messages, headers: [("Authorization", "Bearer nope")]).status == 401)
        #expect(try client.request("GET", "\(Self.messages)/\(ids[0])").status == 401)
        #expect(try client.request("GET", "\(Self.messages)/unknown", headers: Self.admin).status == 404)
        for query in [
            "state=lost", "pageSize=0", "pageSize=x", "pageToken=garbage", "pageToken=0000000000%2F", "pageToken=.",
        ] {
            let bad = try client.request("GET", "\(Self.messages)?\(query)", headers: Self.admin)
            #expect(bad.status == 400, "\(query)")
            #expect(bad.errorStatus == "INVALID_ARGUMENT")
        }
        for body: [String: Any] in [
            [:], ["to": "not an address"], ["to": "a@example.com", "kind": "WELCOME"], ["to": 42],
            // A field of the wrong type is refused, not read as absent (and a TEST mail queued).
            ["to": "a@example.com", "kind": 12345], ["to": "a@example.com", "languageCode": ["x"]],
            ["to": "a@example.com", "displayName": [String: Any]()], ["email": true],
        ] {
            let bad = try client.json(
                "POST",
                "/hearth/v1/projects/demo-project/mail:sendTest",
                body,
                headers: Self.admin
            )
            #expect(bad.status == 400, "\(body)")
        }
    }

    @Test func templateOverridesAreValidatedWhenSetAndUsedAtOnce() throws {
        let server = try HearthServerProcess(arguments: ["--mail-poll", "100"])
        let client = server.client()
        let path = "/hearth/v1/projects/demo-project/mail/templates/PASSWORD_RESET/it"
        let typo = try client.json("PUT", path, ["subject": "Nuova password per %APP_NAM%"], headers: Self.admin)
        #expect(typo.status == 400)
        #expect(typo.errorMessage?.contains("unknown placeholder %APP_NAM%") == true)
        let wrongKind = try client.json("PUT", path, ["text": "%NEW_EMAIL%"], headers: Self.admin)
        #expect(wrongKind.errorMessage?.contains("%NEW_EMAIL% is not available in PASSWORD_RESET") == true)
        let linkless = try client.json("PUT", path, ["html": "<p>Ciao!</p>"], headers: Self.admin)
        #expect(linkless.status == 400)
        #expect(linkless.errorMessage?.contains("html must contain %LINK%") == true, "\(linkless.text)")
        let incomplete = try client.json(
            "PUT",
            "/hearth/v1/projects/demo-project/mail/templates/PASSWORD_RESET/de",
            ["subject": "Passwort"],
            headers: Self.admin
        )
        #expect(incomplete.status == 400)
        #expect(try client.json("PUT", path, ["subject": "x"]).status == 401)

        let set = try client.json("PUT", path, ["subject": "%APP_NAME%: nuova password"], headers: Self.admin)
        #expect(set.status == 200)
        #expect(set.json["overridden"] as? [String] == ["subject"])
        #expect((set.json["text"] as? String)?.hasPrefix("Ciao %DISPLAY_NAME%,") == true)
        let queued = try MailDeliveryTests.sendTest(
            client,
            ["to": "ada@example.com", "kind": "PASSWORD_RESET", "languageCode": "it"]
        )
        #expect(queued["subject"] as? String == "Demo Project: nuova password")

        #expect(try client.request("DELETE", path, headers: Self.admin).status == 200)
        #expect(try client.request("DELETE", path, headers: Self.admin).status == 404)
        let reset = try client.request("GET", path, headers: Self.admin)
        #expect(reset.json["subject"] as? String == "Reimposta la password di %APP_NAME%")
        #expect(
            try client.request(
                "GET",
                "/hearth/v1/projects/demo-project/mail/templates/PASSWORD_RESET/de",
                headers: Self.admin
            ).status == 404
        )
        #expect(
            try client.request("GET", "/hearth/v1/projects/demo-project/mail/templates/NOPE/en", headers: Self.admin)
                .status == 400
        )
    }

    @Test func theEmulatorListsPendingCodesOfTheDevelopmentSeedOnly() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        // Sample messages carry no action code, so nothing is pending yet.
        try MailDeliveryTests.sendTest(client, ["to": "ada@example.com", "kind": "PASSWORD_RESET"])
        let codes = try client.request("GET", "/emulator/v1/projects/demo-project/oobCodes")
        #expect(codes.status == 200)
        #expect(codes.json["oobCodes"] as? [Any] != nil)
        #expect((codes.json["oobCodes"] as? [Any])?.isEmpty == true)
        #expect(try client.request("GET", "/emulator/v1/projects/other-project/oobCodes").status == 404)
    }

    @Test func theCommandLineQueuesListsAndShowsMail() throws {
        let server = try HearthServerProcess(arguments: ["--mail-poll", "100"])
        let data = server.storeArguments
        let id = try HearthCommand.output(
            [
                "mail", "send-test", "--project", "demo-project", "--to", "ada@example.com", "--lang", "fa-IR",
            ] + data
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
        // The running server delivers what the command queued.
        #expect(server.waitForOutput("\"mailId\":\"\(id)\"", timeout: 10))
        let list = try HearthCommand.output(["mail", "list", "--project", "demo-project"] + data)
        let row = try #require(list.split(separator: "\n").first { $0.hasPrefix(id) })
        #expect(row.contains("\tsent\t1 attempts\tTEST\tfa\t"))
        let shown = try HearthCommand.output(["mail", "show", "--project", "demo-project", id] + data)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        #expect(json["language"] as? String == "fa")
        #expect((json["html"] as? String)?.contains("dir=\"rtl\"") == true)
        #expect(throws: TestHTTPError.self) {
            try HearthCommand.output(
                [
                    "mail", "send-test", "--project", "demo-project", "--to", "nobody",
                ] + data
            )
        }
        #expect(throws: TestHTTPError.self) {
            try HearthCommand.output(
                [
                    "mail", "template", "set", "--project", "demo-project", "--kind", "TEST", "--lang", "en",
                    "--subject",
                    "%LINK%",
                ] + data
            )
        }
    }

    @Test func mailThatCannotBeDeliveredInTimeFailsWithItsLastError() throws {
        let sink = try SMTPSink()
        sink.stop()
        let server = try HearthServerProcess(
            arguments: ["--smtp", sink.url, "--test-clock", "--mail-max-age", "60"] + MailDeliveryTests.fastRetries
        )
        let client = server.client()
        let queued = try MailDeliveryTests.sendTest(client, ["to": "ada@example.com"])
        // At least one attempt has failed, and its error is recorded, before the deadline passes
        // (polled: load only delays it; an attempt is counted when it starts).
        #expect(
            try eventually {
                (try MailDeliveryTests.outboxMessages(client).first?["lastError"] as? String) != nil
            }
        )
        #expect(try client.json("POST", "/emulator/v1/clock", ["advanceSeconds": 120]).status == 200)
        let failed = try MailDeliveryTests.waitForMessages(client, state: "failed", count: 1)
        #expect(failed.first?["id"] as? String == queued["id"] as? String)
        let error = failed.first?["lastError"] as? String ?? ""
        #expect(error.hasPrefix("not delivered before its deadline (last error: "))
    }
}
