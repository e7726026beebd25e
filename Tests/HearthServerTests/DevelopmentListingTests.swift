import HearthBase
import HearthCore
import HearthHTTP
import Testing

@testable import HearthServer

@Suite("The development listing of action codes")
struct DevelopmentListingTests {
    @Test("a link an admin generated is listed with its code, and leaves the listing once used")
    func adminGeneratedLinkIsListed() throws {
        let app = try TestApplication()
        try app.application.prepareSigningKeys()
        _ = try app.signUp("ada@example.com")
        let emailed = app.client(
            "/v1/accounts:sendOobCode",
            ["requestType": "PASSWORD_RESET", "email": "ada@example.com"]
        )
        #expect(emailed.status == 200)
        let generated = app.admin(
            .post,
            "/v1/projects/demo-project/accounts:sendOobCode",
            ["requestType": "PASSWORD_RESET", "email": "ada@example.com", "returnOobLink": true]
        )
        let code = try #require(generated.json["oobCode"]?.stringValue)
        let link = try #require(generated.json["oobLink"]?.stringValue)

        let listed = app.send(.get, "/emulator/v1/projects/demo-project/oobCodes").json["oobCodes"]?.arrayValue ?? []
        #expect(listed.count == 2)
        let entry = try #require(listed.last)
        #expect(entry["oobCode"]?.stringValue == code)
        #expect(entry["oobLink"]?.stringValue == link)
        #expect(entry["email"]?.stringValue == "ada@example.com")
        #expect(entry["requestType"]?.stringValue == "PASSWORD_RESET")

        let reset = app.client("/v1/accounts:resetPassword", ["oobCode": .string(code), "newPassword": "new secret 1"])
        #expect(reset.status == 200)
        let after = app.send(.get, "/emulator/v1/projects/demo-project/oobCodes").json["oobCodes"]?.arrayValue ?? []
        #expect(!after.contains { $0["oobCode"]?.stringValue == code })
    }

    @Test("an email-sign-in link an admin generated for a new address is listed")
    func signInLinkIsListed() throws {
        let app = try TestApplication()
        let generated = app.admin(
            .post,
            "/v1/projects/demo-project/accounts:sendOobCode",
            [
                "requestType": "EMAIL_SIGNIN", "email": "new@example.com", "returnOobLink": true,
                "continueUrl": "http://localhost/done", "canHandleCodeInApp": true,
            ]
        )
        let code = try #require(generated.json["oobCode"]?.stringValue)
        let listed = app.send(.get, "/emulator/v1/projects/demo-project/oobCodes").json["oobCodes"]?.arrayValue ?? []
        #expect(listed.map { $0["oobCode"]?.stringValue } == [code])
        #expect(listed.first?["requestType"]?.stringValue == "EMAIL_SIGNIN")
    }
}
