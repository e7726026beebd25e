import Foundation
import HearthTestSupport
import Testing

/// What the database holds after the secrets of a whole flow went through the real binary:
/// none of them usable, byte for byte. On SQLite that is the files themselves (the log and the
/// write-ahead index included), which are the owner's alone; on PostgreSQL, the `pg_dump` of
/// the database (its files are the database server's).
@Suite struct SecretsAtRestTests {
    @Test(
        "after sign-up, every email action, sign-in, an installation and an admin credential, no secret is in the database files"
    )
    func noSecretIsInTheDatabaseFiles() throws {
        let sink = try SMTPSink()
        let server = try HearthServerProcess(arguments: ["--smtp", sink.url, "--mail-poll", "100"])
        let client = server.client()
        var secrets: [(what: String, value: String)] = []

        let user = try client.signUp("ada@example.com", "distinctive-password-1")
        secrets += [("sign-up ID token", user.idToken), ("sign-up refresh token", user.refreshToken)]
        let requests: [[String: Any]] = [
            ["requestType": "VERIFY_EMAIL", "idToken": user.idToken],
            ["requestType": "PASSWORD_RESET", "email": "ada@example.com"],
            ["requestType": "EMAIL_SIGNIN", "email": "ada@example.com", "continueUrl": "http://127.0.0.1/done"],
            ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.idToken, "newEmail": "ada@example.org"],
        ]
        for request in requests {
            let sent = try client.sendOobCode(request)
            #expect(sent.status == 200, "\(request["requestType"] ?? ""): \(sent.text)")
        }
        let signIn = try client.signIn("ada@example.com", "distinctive-password-1")
        #expect(signIn.status == 200)
        let signedIn = try #require(signIn.json["idToken"] as? String)
        let signedInRefresh = try #require(signIn.json["refreshToken"] as? String)
        secrets += [("sign-in ID token", signedIn), ("sign-in refresh token", signedInRefresh)]
        let installation = try client.register()
        secrets += [
            ("installation refresh token", installation.refreshToken), ("installation auth token", installation.token),
        ]
        let credential = try HearthCommand.output(
            [
                "admin-key", "create", "--project", "demo-project", "--label", "at-rest",
            ] + server.storeArguments
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!credential.isEmpty)
        secrets.append(("admin credential", credential))

        // Every email reached the SMTP sink; the codes are the ones its links carry.
        let received = sink.waitForMessages(requests.count)
        #expect(received.count == requests.count)
        let codes = received.compactMap { ($0["text"] as? String).flatMap(Self.firstActionCode(inText:)) }
        #expect(codes.count == requests.count)
        secrets += codes.map { ("emailed code", $0) }
        // The development seed still lists its pending codes (opened from their seal).
        let listed = Set(try client.pendingCodes().map(\.oobCode))
        #expect(!listed.isEmpty && listed.isSubset(of: Set(codes)))

        // While the server runs (on SQLite the write-ahead log holds the latest pages), and after
        // it stopped (checkpointed into the database file).
        #expect(try Self.scanDatabaseFiles(of: server, for: secrets, moment: "running") >= Self.filesWhileRunning)
        #expect(server.stop() == 0)
        _ = try Self.scanDatabaseFiles(of: server, for: secrets, moment: "stopped")
    }

    @Test("a webhook's secret, made or chosen, is in no database file, running or stopped")
    func webhookSecretsAreSealedInTheDatabaseFiles() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        var secrets: [(what: String, value: String)] = []
        let made = try client.admin("POST", "installationWebhooks", ["url": "http://127.0.0.1:9/made"])
        #expect(made.status == 200, "\(made.text)")
        secrets.append(("made webhook secret", try #require(made.json["secret"] as? String)))
        let chosen = "a-webhook-secret-chosen-by-the-admin"
        let subscribed = try client.admin(
            "POST",
            "installationWebhooks",
            ["url": "http://127.0.0.1:9/chosen", "secret": chosen]
        )
        #expect(subscribed.json["secret"] as? String == chosen)
        secrets.append(("chosen webhook secret", chosen))
        // A deletion queues a delivery to each, which reads the secrets back from their seal.
        let installation = try client.register()
        #expect(try client.deleteInstallation(installation).status == 200)
        let pending =
            try client.admin("GET", "installationDeliveries?state=pending").json["deliveries"] as? [[String: Any]]
        #expect(pending?.count == 2)

        #expect(try Self.scanDatabaseFiles(of: server, for: secrets, moment: "running") >= Self.filesWhileRunning)
        #expect(server.stop() == 0)
        _ = try Self.scanDatabaseFiles(of: server, for: secrets, moment: "stopped")
    }

    /// The database files a running server has at least: on SQLite the database and its log,
    /// on PostgreSQL the one dump of its database.
    static var filesWhileRunning: Int { TestDatabase.runsOnPostgreSQL ? 1 : 2 }

    /// Searches everything the server's database stores (its `hearth.db*` files, or a dump of
    /// its PostgreSQL database) for each secret and checks each file is mode 0600; prints the
    /// counts and answers how many files it read.
    static func scanDatabaseFiles(
        of server: HearthServerProcess,
        for secrets: [(what: String, value: String)],
        moment: String
    ) throws -> Int {
        let stored = try server.storedContents()
        if server.database.url != nil {
            #expect(stored.count == 1)
        } else {
            #expect(stored.contains { $0.name == "hearth.db" })
        }
        var bytes = 0
        var found = 0
        for (name, path, contents) in stored {
            bytes += contents.count
            for (what, value) in secrets where contents.holds(value) {
                Issue.record("\(moment): \(name) holds the \(what)")
                found += 1
            }
            guard let path else { continue }
            let mode = try #require(
                try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            )
            #expect(mode & 0o777 == 0o600, "\(name) is \(String(mode & 0o777, radix: 8)), not 0600")
        }
        print(
            "secrets at rest (\(moment)): \(secrets.count) secrets searched in \(stored.count) files, "
                + "\(bytes) bytes: \(found) found"
        )
        return stored.count
    }

    /// The code of the first action link in a message's text.
    static func firstActionCode(inText text: String) -> String? {
        text.split(whereSeparator: \.isWhitespace).lazy.map(String.init)
            .first { $0.hasPrefix("http") && $0.contains("oobCode=") }
            .flatMap { actionCode(in: $0) }
    }
}
