import Foundation
import HearthTestSupport
import Testing

/// Sign-in limits counted in the store, equal cost for known and unknown emails, and
/// passwords that never reach the log or the database.
@Suite struct AccountsAbuseTests {
    @Test func failedSignInsBackOffAcrossRestartsUntilTheWaitIsOver() throws {
        let server = try Accounts.server()
        var client = server.client()
        _ = try client.signUp("zoe@example.com", "password-1")
        for _ in 0..<6 {
            #expect(try client.signIn("zoe@example.com", "wrong-password").errorMessage == "INVALID_LOGIN_CREDENTIALS")
        }
        let waiting = try client.signIn("zoe@example.com", "password-1")
        #expect(waiting.status == 400)
        #expect(waiting.headers["retry-after"] != nil)
        #expect(waiting.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true)
        #expect(waiting.headers["retry-after"] == "1")
        // Each failure once the wait is over doubles the next wait: 1, 2, 4 … 512 s.
        for doubling in 0..<9 {
            try client.advanceClock(seconds: 1 << doubling)
            #expect(try client.signIn("zoe@example.com", "wrong-password").errorMessage == "INVALID_LOGIN_CREDENTIALS")
        }
        let failedAt = try client.serverSeconds()
        #expect(try client.signIn("zoe@example.com", "password-1").headers["retry-after"] == "512")

        // The count lives in the store, so another node (here: the restarted one) sees it.
        try server.restart()
        client = server.client()
        // The restarted node's test clock starts from the real time again: bring it forward
        // to the second of the last failure.
        try client.advanceClock(seconds: max(0, failedAt - client.serverSeconds()))
        let stillWaiting = try client.signIn("zoe@example.com", "password-1")
        #expect(stillWaiting.status == 400)
        #expect(stillWaiting.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true)
        try client.advanceClock(seconds: 512)
        #expect(try client.signIn("zoe@example.com", "password-1").status == 200)
    }

    @Test func failedSignInsFromOneAddressBackOffAcrossEmails() throws {
        let server = try Accounts.server()
        let client = server.client()
        _ = try client.signUp("adam@example.com", "password-1")
        for index in 0..<101 {
            let response = try client.signIn("guess\(index % 50)-\(index / 50)@example.com", "password-1")
            try #require(response.errorMessage == "INVALID_LOGIN_CREDENTIALS", "attempt \(index): \(response.text)")
        }
        let blocked = try client.signIn("adam@example.com", "password-1")
        #expect(blocked.status == 400)
        #expect(blocked.errorMessage?.contains("from this address") == true)
        #expect(blocked.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true)
    }

    @Test func unknownAndKnownEmailsTakeComparableTime() throws {
        let server = try Accounts.server()
        let client = server.client()
        _ = try client.signUp("known@example.com", "password-1")
        func seconds(_ email: String) throws -> Double {
            let start = Date()
            _ = try client.signIn(email, "wrong-password")
            return Date().timeIntervalSince(start)
        }
        // Interleaved, so both share the machine's noise, and the fastest of each compared: load
        // only ever adds time, so a minimum is the work itself. Within the 5 free failures per
        // account and address, so every attempt is tried.
        var known = Double.infinity
        var unknown = Double.infinity
        for _ in 0..<5 {
            known = min(known, try seconds("known@example.com"))
            unknown = min(unknown, try seconds("unknown@example.com"))
        }
        // Skipping the hash for unknown emails would make them several times faster (an
        // Argon2id verification is most of a sign-in); one verification each keeps them close.
        #expect(unknown > known * 0.5, "unknown \(unknown)s vs known \(known)s")
        #expect(known > unknown * 0.5, "unknown \(unknown)s vs known \(known)s")
    }

    @Test func passwordsNeverReachTheLogOrTheDatabase() throws {
        let server = try Accounts.server()
        let client = server.client()
        let password = "Zq-distinctive-secret-7731"
        let user = try client.signUp("pat@example.com", password)
        _ = try client.signIn("pat@example.com", password)
        _ = try client.signIn("pat@example.com", password + "-wrong")
        _ = try client.call("accounts:update", ["idToken": user.idToken, "password": password + "-new"])
        _ = try client.call("accounts:signUp", ["email": "pat@example.com", "password": password])
        _ = try client.admin("/v1/projects/demo-project/accounts", ["email": "pat2@example.com", "password": password])
        server.stop()
        let log = server.output.joined(separator: "\n")
        #expect(log.contains("accounts:signUp"), "the access log should show the calls")
        #expect(!log.contains("distinctive-secret"))
        let stored = try server.storedContents()
        #expect(!stored.isEmpty)
        for (name, _, bytes) in stored {
            #expect(!bytes.holds("distinctive-secret"), "\(name) holds the password")
            #expect(!bytes.holds(user.refreshToken), "\(name) holds a refresh token")
        }
    }
}
