import HearthBase
import HearthHTTP
import Testing

/// Each route family answers errors in the envelope its clients parse: Identity Toolkit with
/// the `errors` list (and no `status` for a 400), Firebase Installations with `status` and no
/// list, Hearth's own and the router's answers with `status`.
@Suite("Error envelopes")
struct ErrorEnvelopeTests {
    private func expectIdentityToolkitEnvelope(_ answer: TestAnswer, code: Int, message: String) {
        #expect(answer.status == code, "\(answer.text)")
        let error = answer.json["error"]
        #expect(error?["code"]?.int64Value == Int64(code))
        #expect(error?["message"]?.stringValue?.hasPrefix(message) == true, "\(answer.text)")
        let entry = error?["errors"]?[0]
        #expect(entry?["message"] == error?["message"])
        #expect(entry?["domain"]?.stringValue == "global")
        #expect(entry?["reason"]?.stringValue != nil)
        #expect(answer.header("Content-Type")?.hasPrefix("application/json") == true)
    }

    @Test("Identity Toolkit business errors carry the errors list and no status")
    func identityToolkit() throws {
        let app = try TestApplication()
        let answer = app.client("/v1/accounts:signUp", ["email": "not-an-email", "password": "correct horse"])
        expectIdentityToolkitEnvelope(answer, code: 400, message: "INVALID_EMAIL")
        #expect(answer.json["error"]?["status"] == nil)

        let legacy = app.client(
            "/identitytoolkit/v3/relyingparty/signupNewUser",
            ["email": "not-an-email", "password": "correct horse"]
        )
        #expect(legacy.text == answer.text)
    }

    @Test("an unknown API key is a 400 whose reason the Apple SDK recognises")
    func unknownAPIKey() throws {
        let app = try TestApplication()
        let answer = app.send(.post, "/v1/accounts:signUp?key=nope", json: [:])
        expectIdentityToolkitEnvelope(answer, code: 400, message: "API_KEY_INVALID")
        #expect(answer.json["error"]?["errors"]?[0]?["reason"]?.stringValue == "keyInvalid")
    }

    @Test("a body that is not JSON is a 400 INVALID_ARGUMENT on every JSON route family")
    func malformedJSON() throws {
        let app = try TestApplication()
        let targets = [
            "/v1/accounts:signUp?key=demo-api-key",
            "/v1/token?key=demo-api-key",
            "/v1/projects/demo-project/installations?key=demo-api-key",
            "/v1/projects/demo-project/accounts:lookup",
        ]
        for target in targets {
            let answer = app.send(
                .post,
                target,
                rawBody: Array("{\"email\":".utf8),
                headers: [("Content-Type", "application/json"), ("Authorization", TestApplication.adminAuthorization)]
            )
            #expect(answer.status == 400, "\(target): \(answer.text)")
            #expect(answer.json["error"]?["code"]?.int64Value == 400, "\(target)")
            #expect(answer.json["error"]?["message"]?.stringValue?.isEmpty == false, "\(target)")
        }
    }

    @Test("Installations errors carry status and no errors list")
    func installations() throws {
        let app = try TestApplication()
        let answer = app.send(
            .post,
            "/v1/projects/demo-project/installations/fAAAAAAAAAAAAAAAAAAAAA/authTokens:generate",
            json: ["installation": ["sdkVersion": "w:0.1"]],
            headers: [("x-goog-api-key", TestApplication.apiKey), ("Authorization", "FIS_v2 not-a-token")]
        )
        #expect(answer.status == 404, "\(answer.text)")
        #expect(answer.json["error"]?["status"]?.stringValue == "NOT_FOUND")
        #expect(answer.json["error"]?["errors"] == nil)
    }

    @Test("Secure Token refusals are Identity Toolkit envelopes")
    func secureToken() throws {
        let app = try TestApplication()
        let answer = app.send(
            .post,
            "/v1/token?key=demo-api-key",
            rawBody: Array("grant_type=refresh_token&refresh_token=nope".utf8),
            headers: [("Content-Type", "application/x-www-form-urlencoded")]
        )
        expectIdentityToolkitEnvelope(answer, code: 400, message: "INVALID_REFRESH_TOKEN")
    }

    @Test("admin refusals: 401 without a credential, 403 with another project's")
    func adminRefusals() throws {
        let app = try TestApplication()
        let missing = app.send(.get, "/hearth/v1/projects/demo-project/installations")
        #expect(missing.status == 401)
        #expect(missing.json["error"]?["status"]?.stringValue == "UNAUTHENTICATED")
        let wrong = app.send(
            .get,
            "/hearth/v1/projects/demo-project/installations",
            headers: [("Authorization", "Bearer not-a-credential")]
        )
        #expect(wrong.status == 401)
        #expect(wrong.json["error"]?["status"]?.stringValue == "UNAUTHENTICATED")
    }

    @Test("the router answers 405 with Allow, and 404 for an unknown path, in the envelope")
    func routerRefusals() throws {
        let app = try TestApplication()
        let wrongMethod = app.send(.delete, "/v1/accounts:signUp")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow")?.contains("POST") == true)
        #expect(wrongMethod.json["error"]?["code"]?.int64Value == 405)
        let unknown = app.send(.post, "/v1/accounts:teleport?key=demo-api-key", json: [:])
        #expect(unknown.status == 404)
        #expect(unknown.json["error"]?["code"]?.int64Value == 404)
    }
}
