import HearthBase
import HearthHTTP
import Testing

@testable import HearthServer

@Suite("Answers while starting")
struct StartupResponderTests {
    @Test("until ready, /healthz says starting and every other route is 503 UNAVAILABLE; then the router answers")
    func startingThenReady() throws {
        let app = try TestApplication()
        let responder = StartupResponder()

        let health = TestAnswer(responder.respond(to: Request(method: .get, target: "/healthz")))
        #expect(health.status == 503)
        #expect(health.json["status"]?.stringValue == "starting")
        let other = TestAnswer(
            responder.respond(to: Request(method: .post, target: "/v1/accounts:signUp?key=demo-api-key"))
        )
        #expect(other.status == 503)
        #expect(other.json["error"]?["status"]?.stringValue == "UNAVAILABLE")

        responder.becomeReady(with: app.router)
        #expect(TestAnswer(responder.respond(to: Request(method: .get, target: "/healthz"))).status == 200)
        let keys = TestAnswer(responder.respond(to: Request(method: .get, target: "/v1/projects/demo-project/jwks")))
        #expect(keys.status == 200)
    }
}
