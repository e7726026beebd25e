import HearthBase
import HearthHTTP
import Testing

@Suite("The application, in-process")
struct ApplicationSmokeTests {
    @Test("a sign-up and a lookup run through the router with no socket")
    func signUpAndLookUp() throws {
        let app = try TestApplication()
        let signedUp = try app.signUp("ada@example.com")
        let idToken = try #require(signedUp["idToken"]?.stringValue)
        let lookup = app.client("/v1/accounts:lookup", ["idToken": .string(idToken)])
        #expect(lookup.status == 200)
        #expect(lookup.json["users"]?[0]?["email"]?.stringValue == "ada@example.com")
    }

    @Test("an unknown route answers the Google envelope's 404")
    func unknownRoute() throws {
        let app = try TestApplication()
        let answer = app.send(.get, "/v1/nowhere")
        #expect(answer.status == 404)
        #expect(answer.json["error"]?["status"]?.stringValue == "NOT_FOUND")
    }
}
