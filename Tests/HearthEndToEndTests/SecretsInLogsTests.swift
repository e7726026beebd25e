import Foundation
import HearthTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// No secret a full flow uses — passwords, refresh and ID tokens, action codes, installation
/// tokens, admin credentials, SMTP and webhook passwords — appears in the server's log, in an
/// error it answers, or in the command line's output.
@Suite struct SecretsInLogsTests {
    @Test func aFullFlowLeavesNoSecretInTheLogOrInAnyError() throws {
        let smtpPassword = "smtp-Pa55-\(UUID().uuidString.prefix(8))"
        let hookPassword = "hook-Pa55-\(UUID().uuidString.prefix(8))"
        // Nothing listens on port 1: every delivery fails, and its failure is logged.
        let server = try HearthServerProcess(arguments: [
            "--test-clock", "--smtp", "smtp://mailer:\(smtpPassword)@127.0.0.1:1?starttls=off&timeout=2",
            "--mail-retry-base", "10", "--mail-poll", "20", "--webhook-retry-base-ms", "10",
        ])
        let data = server.storeArguments
        var secrets = [smtpPassword, hookPassword]
        var answers: [String] = []
        let client = server.client()
        /// Keeps the text of every refusal (a success carries the tokens it hands out).
        func record(_ response: TestResponse) -> TestResponse {
            if response.status >= 400 { answers.append(response.text) }
            return response
        }

        // An admin credential of its own (the seed's "owner" is public and printed on purpose).
        let made = try HearthCommand.run(["admin-key", "create", "--project", "demo-project", "--label", "ci"] + data)
        try #require(made.status == 0, "\(made.errors)")
        let credential = made.output.trimmingCharacters(in: .whitespacesAndNewlines)
        secrets.append(credential)
        let hook = try HearthCommand.run(
            ["webhooks", "add", "--project", "demo-project", "--url", "http://127.0.0.1:1/hook?token=\(hookPassword)"]
                + data
        )
        try #require(hook.status == 0, "\(hook.errors)")
        secrets.append(
            String(hook.output.split(separator: "\t").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        )

        // Accounts: sign-up, a wrong password, a password of the wrong type, sign-in, refresh.
        let firstPassword = "first-Pa55-\(UUID().uuidString.prefix(8))"
        let wrongPassword = "wrong-Pa55-\(UUID().uuidString.prefix(8))"
        let numericPassword = "98765432123456789"
        secrets += [firstPassword, wrongPassword, numericPassword]
        let user = try client.signUp("sam@example.com", firstPassword)
        secrets += [user.idToken, user.refreshToken]
        #expect(record(try client.signIn("sam@example.com", wrongPassword)).status == 400)
        let typed = record(
            try client.request(
                "POST",
                Accounts.identityToolkit + "accounts:signInWithPassword?key=\(Accounts.apiKey)",
                headers: [("Content-Type", "application/json")],
                body: Array(#"{"email":"sam@example.com","password":\#(numericPassword)}"#.utf8)
            )
        )
        #expect(typed.status == 400)
        let signedIn = try SignedInUser(record(try client.signIn("sam@example.com", firstPassword)))
        secrets += [signedIn.idToken, signedIn.refreshToken]
        let refreshed = record(
            try client.request(
                "POST",
                Accounts.secureToken + "?key=\(Accounts.apiKey)",
                headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("grant_type=refresh_token&refresh_token=\(signedIn.refreshToken)".utf8)
            )
        )
        #expect(refreshed.status == 200)
        for field in ["id_token", "refresh_token", "access_token"] {
            if let token = refreshed.json[field] as? String { secrets.append(token) }
        }

        // A password reset: the code is read where a developer reads it, then used.
        #expect(
            record(try client.sendOobCode(["requestType": "PASSWORD_RESET", "email": "sam@example.com"])).status == 200
        )
        let code = try #require(try client.pendingCode("PASSWORD_RESET", for: "sam@example.com")).oobCode
        secrets.append(code)
        // Secrets in a query string (a GET of a POST route) are not logged with the path.
        _ = record(
            try client.request(
                "GET",
                Accounts.identityToolkit + "accounts:resetPassword?key=\(Accounts.apiKey)&oobCode=\(code)"
            )
        )
        let secondPassword = "second-Pa55-\(UUID().uuidString.prefix(8))"
        secrets.append(secondPassword)
        #expect(
            record(try client.call("accounts:resetPassword", ["oobCode": code, "newPassword": secondPassword])).status
                == 200
        )
        // The spent code, again: refused without being repeated.
        #expect(
            record(try client.call("accounts:resetPassword", ["oobCode": code, "newPassword": secondPassword])).status
                == 400
        )

        // Installations: register, a fresh token, an admin deletion (which calls the webhook).
        let installation = try client.register()
        secrets += [installation.refreshToken, installation.token]
        let generated = record(try client.generateToken(installation))
        #expect(generated.status == 200)
        if let token = generated.json["token"] as? String { secrets.append(token) }

        // Admin calls with the credential made above, a password among them.
        let thirdPassword = "third-Pa55-\(UUID().uuidString.prefix(8))"
        secrets.append(thirdPassword)
        let base = "/v1/projects/demo-project/"
        #expect(
            record(try client.admin(base + "accounts:lookup", ["email": ["sam@example.com"]], credential: credential))
                .status == 200
        )
        #expect(
            record(
                try client.admin(
                    base + "accounts:update",
                    ["localId": user.localID, "password": thirdPassword],
                    credential: credential
                )
            ).status == 200
        )
        #expect(
            record(
                try client.json(
                    "DELETE",
                    "/v1/project/demo-project/instanceId/\(installation.fid)",
                    headers: [("Authorization", "Bearer \(credential)")]
                )
            ).status < 300
        )
        // A wrong credential is refused without being repeated.
        _ = record(
            try client.admin(base + "accounts:lookup", ["email": ["sam@example.com"]], credential: wrongPassword)
        )

        #expect(server.waitForOutput("mail delivery failed"))
        #expect(server.waitForOutput("webhook delivery failed"))
        let listed = try HearthCommand.run(["webhooks", "list", "--project", "demo-project"] + data)
        #expect(listed.output.contains("http://127.0.0.1:1/hook?token=***"))
        let mailList = try HearthCommand.run(["mail", "list", "--project", "demo-project"] + data)
        server.stop()

        let printed = server.output.joined(separator: "\n")
        let everything =
            [printed, made.errors, hook.errors, listed.output, listed.errors, mailList.output, mailList.errors]
            + answers
        for secret in secrets where !secret.isEmpty {
            for (index, text) in everything.enumerated() {
                #expect(!text.contains(secret), "secret \(secret.prefix(12))… found in text \(index)")
            }
        }
    }

    @Test func aStartThatFailsOnItsDatabaseNamesItWithoutThePasswordAndNeverTakesThePort() throws {
        // Hold a port: a server that bound before opening its store would report it in use.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 1) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-db-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }

        let password = "db-Pa55-\(UUID().uuidString.prefix(8))"
        let started = try HearthCommand.run([
            "serve", "--port", String(port), "--data", directory.path,
            "--database", "postgres://hearth:\(password)@127.0.0.1:5432/hearth",
        ])
        #expect(started.status == 2)
        #expect(!started.output.contains(password) && !started.errors.contains(password))
        #expect(started.output.contains("postgres://***@127.0.0.1:5432/hearth"))
        #expect(!started.errors.contains("in use"))
        #expect(!started.output.contains("http server listening"))

        // A SQLite store that cannot be opened fails the same way, before the port.
        let blocker = directory.appendingPathComponent("not-a-directory")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: blocker)
        let unopenable = try HearthCommand.run([
            "serve", "--port", String(port), "--data", directory.path,
            "--database", "sqlite:\(blocker.path)/hearth.db",
        ])
        #expect(unopenable.status == 2)
        #expect(unopenable.errors.contains("cannot open the database"), "\(unopenable.errors)")
        #expect(!unopenable.errors.contains("in use"))
        #expect(!unopenable.output.contains("http server listening"))
    }

    @Test func projectShowPrintsAProjectsSMTPSettingsWithoutItsPasswords() throws {
        let inURL = "url-Pa55-\(UUID().uuidString.prefix(8))"
        let inField = "field-Pa55-\(UUID().uuidString.prefix(8))"
        let config = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hearth-smtp-\(UUID().uuidString).json"
        )
        defer { try? FileManager.default.removeItem(at: config) }
        let document = """
            {"projects": [{"projectId": "mail-project", "projectNumber": "400000000000", "apiKeys": ["mail-key"],
              "settings": {"mail": {"smtp": {"url": "smtp://mailer:\(inURL)@127.0.0.1:1", "password": "\(inField)"}}}}]}
            """
        try Data(document.utf8).write(to: config)
        let server = try HearthServerProcess(arguments: ["--config", config.path])
        let shown = try HearthCommand.run(["project", "show", "mail-project"] + server.storeArguments)
        server.stop()
        #expect(shown.status == 0, "\(shown.errors)")
        #expect(shown.output.contains("smtp://***@127.0.0.1:1"))
        for secret in [inURL, inField] {
            #expect(!shown.output.contains(secret))
            #expect(!server.output.joined().contains(secret))
        }
    }
}
