import HearthBase
import HearthCore
import HearthHTTP
import Testing

/// Every list route pages the same way: `nextPageToken` while more remain, each item seen
/// once across the pages, and a token the server did not give refused with a 400 in the
/// route's own envelope.
@Suite("Page tokens")
struct PageTokenTests {
    /// Follows `nextPageToken` from the first page to the last, collecting `key` of each item.
    private func walk(
        _ app: TestApplication,
        pages: Int = 20,
        first: () -> TestAnswer,
        next: (String) -> TestAnswer,
        items: String,
        key: String
    ) throws -> [String] {
        var seen: [String] = []
        var answer = first()
        for _ in 0..<pages {
            #expect(answer.status == 200, "\(answer.text)")
            for item in answer.json[items]?.arrayValue ?? [] {
                seen.append(try #require(item[key]?.stringValue))
            }
            guard let token = answer.json["nextPageToken"]?.stringValue else { return seen }
            answer = next(token)
        }
        Issue.record("more than \(pages) pages")
        return seen
    }

    @Test("accounts:batchGet visits every user once and refuses a forged token")
    func accountPages() throws {
        let app = try TestApplication()
        var created: [String] = []
        for index in 0..<5 {
            created.append(try #require(try app.signUp("user\(index)@example.com")["localId"]?.stringValue))
        }
        let path = "/v1/projects/demo-project/accounts:batchGet"
        let seen = try walk(
            app,
            first: { app.admin(.get, path + "?maxResults=2") },
            next: { app.admin(.get, path + "?maxResults=2&nextPageToken=\($0)") },
            items: "users",
            key: "localId"
        )
        #expect(seen.sorted() == created.sorted())
        #expect(Set(seen).count == seen.count)

        let forged = app.admin(.get, path + "?maxResults=2&nextPageToken=%25%25not-base64")
        #expect(forged.status == 400)
        #expect(forged.errorMessage?.hasPrefix("INVALID_PAGE_SELECTION") == true)
        #expect(app.admin(.get, path + "?maxResults=0").status == 400)
        #expect(app.admin(.get, path + "?maxResults=1001").status == 400)
    }

    @Test("installation, tombstone and delivery lists page through everything once")
    func installationPages() throws {
        let app = try TestApplication()
        var fids: [String] = []
        for _ in 0..<5 {
            let created = app.send(
                .post,
                "/v1/projects/demo-project/installations",
                json: ["appId": .string(DevelopmentSeed.webAppID), "authVersion": "FIS_v2", "sdkVersion": "w:0.1"],
                headers: [("x-goog-api-key", TestApplication.apiKey)]
            )
            #expect(created.status == 200, "\(created.text)")
            fids.append(try #require(created.json["fid"]?.stringValue))
        }
        let list = "/hearth/v1/projects/demo-project/installations"
        let listed = try walk(
            app,
            first: { app.admin(.get, list + "?pageSize=2") },
            next: { app.admin(.get, list + "?pageSize=2&pageToken=\($0)") },
            items: "installations",
            key: "fid"
        )
        #expect(listed.sorted() == fids.sorted())

        for fid in fids {
            #expect(app.admin(.delete, "/v1/project/demo-project/instanceId/\(fid)").status == 200)
            app.clock.advance(milliseconds: 1)
        }
        let tombstones = "/hearth/v1/projects/demo-project/installationTombstones"
        let deleted = try walk(
            app,
            first: { app.admin(.get, tombstones + "?pageSize=2") },
            next: { app.admin(.get, tombstones + "?pageSize=2&pageToken=\($0)") },
            items: "tombstones",
            key: "fid"
        )
        #expect(deleted.sorted() == fids.sorted())

        for path in [list, tombstones, "/hearth/v1/projects/demo-project/installationDeliveries"] {
            let forged = app.admin(.get, path + "?pageToken=%25%25")
            #expect(forged.status == 400, "\(path): \(forged.text)")
            #expect(forged.json["error"]?["status"]?.stringValue == "INVALID_ARGUMENT")
            #expect(app.admin(.get, path + "?pageSize=0").status == 400)
            #expect(app.admin(.get, path + "?pageSize=1001").status == 400)
        }
    }

    @Test("the outbox listing pages through every message once")
    func outboxPages() throws {
        let app = try TestApplication()
        for index in 0..<5 {
            try app.signUp("reader\(index)@example.com")
            let sent = app.client(
                "/v1/accounts:sendOobCode",
                ["requestType": "PASSWORD_RESET", "email": .string("reader\(index)@example.com")]
            )
            #expect(sent.status == 200, "\(sent.text)")
        }
        let path = "/hearth/v1/projects/demo-project/mail/messages"
        let seen = try walk(
            app,
            first: { app.admin(.get, path + "?pageSize=2") },
            next: { app.admin(.get, path + "?pageSize=2&pageToken=\($0)") },
            items: "messages",
            key: "id"
        )
        #expect(seen.count == 5)
        #expect(Set(seen).count == 5)

        let forged = app.admin(.get, path + "?pageToken=not-an-id")
        #expect(forged.status == 400)
        #expect(forged.json["error"]?["status"]?.stringValue == "INVALID_ARGUMENT")
        #expect(app.admin(.get, path + "?pageSize=0").status == 400)
    }
}
