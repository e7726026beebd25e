import Foundation
import HearthTestSupport
import Testing

/// The admin account API and the admin credential rules, over HTTP.
@Suite struct AccountsAdminTests {
    private let base = "/identitytoolkit.googleapis.com/v1/projects/demo-project/"

    @Test func adminsCreateLookUpUpdateAndDeleteUsers() throws {
        let server = try Accounts.server()
        let client = server.client()
        let created = try client.admin(
            base + "accounts",
            [
                "localId": "admin-made", "email": "Xena@Example.com", "password": "password-1", "emailVerified": true,
                "displayName": "Xena",
            ]
        )
        #expect(created.status == 200)
        #expect(created.json["localId"] as? String == "admin-made")
        #expect(created.json["idToken"] == nil)
        #expect(try client.signIn("xena@example.com", "password-1").status == 200)

        #expect(
            try client.admin(base + "accounts", ["localId": "admin-made"]).errorMessage?.hasPrefix("DUPLICATE_LOCAL_ID")
                == true
        )
        #expect(try client.admin(base + "accounts", ["email": "xena@example.com"]).errorMessage == "EMAIL_EXISTS")
        #expect(
            try client.admin(base + "accounts", ["password": "123"]).errorMessage?.hasPrefix("WEAK_PASSWORD") == true
        )
        #expect(try client.admin(base + "accounts", ["email": "bad"]).errorMessage == "INVALID_EMAIL")
        let bare = try client.admin(base + "accounts", [:])
        #expect((bare.json["localId"] as? String)?.count == 28)

        let byEmail = try client.admin(
            base + "accounts:lookup",
            ["email": ["XENA@example.com"], "localId": ["admin-made", "ghost"]]
        )
        let users = try #require(byEmail.json["users"] as? [[String: Any]])
        #expect(users.count == 1)
        #expect(users[0]["emailVerified"] as? Bool == true)
        #expect(users[0]["displayName"] as? String == "Xena")
        let none = try client.admin(base + "accounts:lookup", ["localId": ["ghost"]])
        #expect(none.status == 200)
        #expect(none.json["users"] == nil)
        #expect(none.json["kind"] as? String == "identitytoolkit#GetAccountInfoResponse")

        let updated = try client.admin(
            base + "accounts:update",
            [
                "localId": "admin-made", "email": "xena2@example.com", "emailVerified": true, "password": "password-2",
                "customAttributes": #"{"role":"editor"}"#, "deleteAttribute": ["DISPLAY_NAME"],
            ]
        )
        #expect(updated.status == 200)
        #expect(updated.json["localId"] as? String == "admin-made")
        #expect(updated.json["email"] as? String == "xena2@example.com")
        #expect(updated.json["emailVerified"] as? Bool == true)
        #expect(updated.json["displayName"] == nil)
        #expect(updated.json["idToken"] == nil)
        let signedIn = try SignedInUser(try client.signIn("xena2@example.com", "password-2"))
        #expect(jwtClaims(signedIn.idToken)["role"] as? String == "editor")
        #expect(
            try client.admin(base + "accounts:update", ["localId": "ghost", "displayName": "x"]).errorMessage?
                .hasPrefix("USER_NOT_FOUND") == true
        )
        #expect(try client.admin(base + "accounts:update", ["displayName": "x"]).errorMessage == "MISSING_LOCAL_ID")
        let forbidden = try client.admin(
            base + "accounts:update",
            ["localId": "admin-made", "customAttributes": #"{"sub":"x"}"#]
        )
        #expect(forbidden.errorMessage?.hasPrefix("FORBIDDEN_CLAIM") == true)

        let deleted = try client.admin(base + "accounts:delete", ["localId": "admin-made"])
        #expect(deleted.status == 200)
        #expect(deleted.json["kind"] as? String == "identitytoolkit#DeleteAccountResponse")
        #expect(
            try client.admin(base + "accounts:delete", ["localId": "admin-made"]).errorMessage?.hasPrefix(
                "USER_NOT_FOUND"
            ) == true
        )
    }

    @Test func batchGetPagesThroughEveryUser() throws {
        let server = try Accounts.server()
        let client = server.client()
        var expected: [String] = []
        for index in 0..<5 {
            let response = try client.admin(
                base + "accounts",
                ["localId": "user-\(index)", "email": "u\(index)@example.com"]
            )
            expected.append(try #require(response.json["localId"] as? String))
        }
        var seen: [String] = []
        var pageToken: String?
        var pages = 0
        repeat {
            var path = base + "accounts:batchGet?maxResults=2"
            if let pageToken { path += "&nextPageToken=\(pageToken)" }
            let page = try client.admin(path, [:], method: "GET")
            #expect(page.status == 200)
            #expect(page.json["kind"] as? String == "identitytoolkit#DownloadAccountResponse")
            seen += (page.json["users"] as? [[String: Any]] ?? []).compactMap { $0["localId"] as? String }
            pageToken = page.json["nextPageToken"] as? String
            pages += 1
        } while pageToken != nil && pages < 10
        #expect(seen == expected.sorted())
        #expect(pages == 3)
        #expect(try client.admin(base + "accounts:batchGet?maxResults=5000", [:], method: "GET").status == 400)
        let apps = try client.request("GET", base + "accounts:batchGet?key=\(Accounts.apiKey)")
        #expect(apps.status == 401)
    }

    @Test func batchDeleteSparesEnabledUsersUnlessForced() throws {
        let server = try Accounts.server()
        let client = server.client()
        _ = try client.admin(base + "accounts", ["localId": "on"])
        _ = try client.admin(base + "accounts", ["localId": "off", "disabled": true])
        let gentle = try client.admin(
            base + "accounts:batchDelete",
            ["localIds": ["on", "off", "ghost"], "force": false]
        )
        #expect(gentle.status == 200)
        let errors = try #require(gentle.json["errors"] as? [[String: Any]])
        #expect(errors.count == 1)
        #expect(errors[0]["index"] as? Int == 0)
        #expect(errors[0]["localId"] as? String == "on")
        #expect((errors[0]["message"] as? String)?.hasPrefix("NOT_DISABLED") == true)
        let forced = try client.admin(base + "accounts:batchDelete", ["localIds": ["on"], "force": true])
        #expect(forced.json["errors"] == nil)
        let left = try client.admin(base + "accounts:lookup", ["localId": ["on", "off"]])
        #expect(left.json["users"] == nil)
    }

    @Test func adminCredentialsAreCheckedMissingWrongRevokedAndForeign() throws {
        let server = try Accounts.server(openProject: true)
        let client = server.client()
        let lookup = ["localId": ["nobody"]]
        let missing = try client.json("POST", base + "accounts:lookup", lookup)
        #expect(missing.status == 401)
        #expect(missing.errorStatus == "UNAUTHENTICATED")
        #expect(try client.admin(base + "accounts:lookup", lookup, credential: "wrong").status == 401)
        #expect(try client.admin(base + "accounts:lookup", lookup, credential: "hak_abc_def").status == 401)

        let (credential, id) = try adminKey(server, project: "demo-project")
        #expect(try client.admin(base + "accounts:lookup", lookup, credential: credential).status == 200)
        // A valid credential of another project is forbidden.
        let (openCredential, _) = try adminKey(server, project: "open-project")
        let foreign = try client.admin(base + "accounts:lookup", lookup, credential: openCredential)
        #expect(foreign.status == 403)
        #expect(foreign.errorMessage?.hasPrefix("INSUFFICIENT_PERMISSION") == true)
        // `owner` is the seed project's only.
        let ownerElsewhere = try client.admin("/v1/projects/open-project/accounts:lookup", lookup, credential: "owner")
        #expect(ownerElsewhere.status == 401)

        #expect(
            try HearthCommand.run(
                ["admin-key", "revoke", "--project", "demo-project", id] + server.storeArguments
            ).status == 0
        )
        #expect(try client.admin(base + "accounts:lookup", lookup, credential: credential).status == 401)
        let listing = try HearthCommand.run(
            [
                "admin-key", "list", "--project", "demo-project",
            ] + server.storeArguments
        )
        #expect(listing.combined.contains("\(id)\trevoked"))
        #expect(!listing.combined.contains(String(credential.split(separator: "_").last!)))
    }

    @Test func ownerIsRefusedWhenTheSeedDoesNotRun() throws {
        let server = try Accounts.server(openProject: true, seed: false)
        let client = server.client()
        let response = try client.admin(
            "/v1/projects/open-project/accounts:lookup",
            ["localId": ["x"]],
            credential: "owner"
        )
        #expect(response.status == 401)
        let projectless = try client.admin("/v1/accounts:lookup", ["localId": ["x"]], credential: "owner")
        #expect(projectless.status == 401)
    }

    @Test func projectlessAdminCallsFindTheProjectFromTheCredentialTargetOrKey() throws {
        let server = try Accounts.server(openProject: true)
        let client = server.client()
        _ = try client.signUp("yara@example.com", key: Accounts.openAPIKey)
        let (credential, _) = try adminKey(server, project: "open-project")
        let byCredential = try client.admin(
            Accounts.identityToolkit + "accounts:lookup",
            ["email": ["yara@example.com"]],
            credential: credential
        )
        #expect((byCredential.json["users"] as? [[String: Any]])?.count == 1)
        let byTarget = try client.admin(
            Accounts.identityToolkit + "accounts:lookup",
            ["email": ["yara@example.com"], "targetProjectId": "open-project"],
            credential: credential
        )
        #expect((byTarget.json["users"] as? [[String: Any]])?.count == 1)
        let wrongTarget = try client.admin(
            Accounts.identityToolkit + "accounts:lookup",
            ["email": ["yara@example.com"], "targetProjectId": "demo-project"],
            credential: credential
        )
        #expect(wrongTarget.status == 403)
        let owner = try client.admin(Accounts.identityToolkit + "accounts:lookup", ["email": ["yara@example.com"]])
        #expect(owner.status == 200)
        #expect(owner.json["users"] == nil)
        // Apps may not name a target project.
        let app = try client.call("accounts:lookup", ["idToken": "x", "targetProjectId": "open-project"])
        #expect(app.errorMessage?.hasPrefix("INSUFFICIENT_PERMISSION") == true)
    }

    /// Makes an admin credential with the real CLI on the server's data directory.
    private func adminKey(_ server: HearthServerProcess, project: String) throws -> (credential: String, id: String) {
        let result = try HearthCommand.run(
            [
                "admin-key", "create", "--project", project, "--label", "test",
            ] + server.storeArguments
        )
        try #require(result.status == 0, "admin-key create failed: \(result.combined)")
        let credential = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let id = String(credential.dropFirst(4).prefix { $0 != "_" })
        return (credential, id)
    }

}
