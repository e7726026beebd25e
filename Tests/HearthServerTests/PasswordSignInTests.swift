import HearthBase
import HearthHTTP
import Testing

@Suite("Password sign-in, in-process")
struct PasswordSignInTests {
    static func body(_ email: String, _ password: String) -> JSONValue {
        ["email": .string(email), "password": .string(password), "returnSecureToken": true]
    }

    @Test("a sign-in is answered later, so the server thread serves others while the password hashes")
    func signInIsDeferred() throws {
        let app = try TestApplication()
        _ = try app.signUp("ada@example.com", password: "password-1")
        let request = Request(
            method: .post,
            target: "/v1/accounts:signInWithPassword?key=\(TestApplication.apiKey)",
            headers: ["Content-Type": "application/json"],
            body: Self.body("ada@example.com", "password-1").serialized()
        )
        let deferred = app.router.respond(to: request).isDeferred
        #expect(deferred)
    }

    @Test("the deferred answer carries the account and working tokens")
    func signInSucceeds() throws {
        let app = try TestApplication()
        let signedUp = try app.signUp("ada@example.com", password: "password-1")
        let answer = app.client("/v1/accounts:signInWithPassword", Self.body("Ada@Example.com", "password-1"))
        #expect(answer.status == 200)
        #expect(answer.json["kind"]?.stringValue == "identitytoolkit#VerifyPasswordResponse")
        #expect(answer.json["localId"] == signedUp["localId"])
        #expect(answer.json["email"]?.stringValue == "ada@example.com")
        #expect(answer.json["registered"] == true)
        let idToken = try #require(answer.json["idToken"]?.stringValue)
        let lookup = app.client("/v1/accounts:lookup", ["idToken": .string(idToken)])
        #expect(lookup.json["users"]?[0]?["localId"] == signedUp["localId"])
        let refreshToken = try #require(answer.json["refreshToken"]?.stringValue)
        let refreshed = app.send(
            .post,
            "/v1/token?key=\(TestApplication.apiKey)",
            rawBody: Array("grant_type=refresh_token&refresh_token=\(refreshToken)".utf8),
            headers: [("Content-Type", "application/x-www-form-urlencoded")]
        )
        #expect(refreshed.status == 200, "\(refreshed.text)")
    }

    @Test("refusals arrive in the Identity Toolkit envelope, the request's own faults at once")
    func refusals() throws {
        let app = try TestApplication()
        let signedUp = try app.signUp("ada@example.com", password: "password-1")
        let path = "/v1/accounts:signInWithPassword"
        #expect(
            app.client(path, Self.body("ada@example.com", "password-2")).errorMessage == "INVALID_LOGIN_CREDENTIALS"
        )
        #expect(
            app.client(path, Self.body("bob@example.com", "password-1")).errorMessage == "INVALID_LOGIN_CREDENTIALS"
        )
        #expect(app.client(path, Self.body("ada@example.com", "")).errorMessage == "MISSING_PASSWORD")
        let disable = app.admin(
            .post,
            "/v1/projects/\(TestApplication.projectID)/accounts:update",
            ["localId": signedUp["localId"]!, "disableUser": true]
        )
        #expect(disable.status == 200)
        #expect(
            app.client(path, Self.body("ada@example.com", "password-1")).errorMessage?.hasPrefix("USER_DISABLED")
                == true
        )
        #expect(
            app.client(path, Self.body("ada@example.com", "password-2")).errorMessage == "INVALID_LOGIN_CREDENTIALS"
        )
    }

    @Test(
        "failures are counted by the deferred write; past the free ones the address waits, refused before any hashing"
    )
    func failuresBackOffBeforeAnyHashing() throws {
        let app = try TestApplication()
        _ = try app.signUp("ada@example.com", password: "password-1")
        let path = "/v1/accounts:signInWithPassword"
        for _ in 0..<6 {
            #expect(
                app.client(path, Self.body("ada@example.com", "wrong-password"), remoteAddress: "203.0.113.5")
                    .errorMessage == "INVALID_LOGIN_CREDENTIALS"
            )
        }
        let request = Request(
            method: .post,
            target: "\(path)?key=\(TestApplication.apiKey)",
            headers: ["Content-Type": "application/json"],
            body: Self.body("ada@example.com", "password-1").serialized(),
            remoteAddress: "203.0.113.5"
        )
        let waiting = TestAnswer(app.router.respond(to: request))
        #expect(!waiting.response.isDeferred)
        #expect(waiting.status == 400)
        #expect(waiting.header("Retry-After") == "1")
        #expect(
            waiting.errorMessage
                == "TOO_MANY_ATTEMPTS_TRY_LATER : Too many failed sign-in attempts on this account from this "
                + "address. Try again in 1 s."
        )
        // Firebase's envelope of a business error: code 400, no status.
        #expect(waiting.json["error"]?["code"]?.int64Value == 400 && waiting.json["error"]?["status"] == nil)
        // The owner, elsewhere, signs in meanwhile; the waiting address may again once the wait is over.
        #expect(
            app.client(path, Self.body("ada@example.com", "password-1"), remoteAddress: "198.51.100.2").status == 200
        )
        app.clock.advance(milliseconds: 1_000)
        #expect(
            app.client(path, Self.body("ada@example.com", "password-1"), remoteAddress: "203.0.113.5").status == 200
        )
    }

    @Test("one address failing across many accounts is told it is the address that waits")
    func anAddressFailingAcrossAccountsWaits() throws {
        let app = try TestApplication()
        let path = "/v1/accounts:signInWithPassword"
        for index in 0..<101 {
            let answer = app.client(
                path,
                Self.body("guess\(index)@example.com", "password-1"),
                remoteAddress: "203.0.113.7"
            )
            try #require(answer.errorMessage == "INVALID_LOGIN_CREDENTIALS", "attempt \(index): \(answer.text)")
        }
        let waiting = app.client(path, Self.body("someone@example.com", "password-1"), remoteAddress: "203.0.113.7")
        #expect(waiting.status == 400)
        #expect(waiting.header("Retry-After") == "1")
        #expect(
            waiting.errorMessage
                == "TOO_MANY_ATTEMPTS_TRY_LATER : Too many failed sign-in attempts from this address. Try again in 1 s."
        )
        let elsewhere = app.client(path, Self.body("someone@example.com", "password-1"), remoteAddress: "198.51.100.2")
        #expect(elsewhere.errorMessage == "INVALID_LOGIN_CREDENTIALS")
    }
}
