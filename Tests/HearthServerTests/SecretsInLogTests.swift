import Foundation
import HearthBase
import HearthHTTP
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Secrets stay out of the log and out of errors")
struct SecretsInLogTests {
    /// Waits (up to 10 s) until the log contains `text`.
    private func waitForLog(_ app: TestApplication, _ text: String) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while ContinuousClock.now < deadline {
            if app.logText().contains(text) { return true }
            usleep(10_000)
        }
        return false
    }

    @Test("mail kept in the outbox is logged with where to read it, never with its link or code")
    func mailLineHasNoCode() throws {
        let app = try TestApplication(background: true)
        _ = try app.signUp("kim@example.com")
        let sent = app.client(
            "/v1/accounts:sendOobCode",
            ["requestType": "PASSWORD_RESET", "email": "kim@example.com"]
        )
        #expect(sent.status == 200)
        #expect(waitForLog(app, "mail for kim@example.com kept in the outbox"))
        let listing = app.send(.get, "/emulator/v1/projects/\(TestApplication.projectID)/oobCodes")
        let code = try #require(listing.json["oobCodes"]?[0]?["oobCode"]?.stringValue)
        let log = app.logText()
        #expect(!log.contains(code))
        #expect(!log.contains("oobCode="))
        #expect(log.contains("GET /emulator/v1/projects/demo-project/oobCodes"))
        #expect(log.contains("hearth mail list --project demo-project"))
    }

    @Test("an error about a secret field names the field but does not echo its value")
    func errorsDoNotEchoSecrets() throws {
        let app = try TestApplication()
        let answers = [
            app.client("/v1/accounts:signInWithPassword", ["email": "kim@example.com", "password": 31_415_926_535]),
            app.client("/v1/accounts:resetPassword", ["oobCode": 27_182_818_284, "newPassword": "whatever-long"]),
            app.client("/v1/accounts:resetPassword", ["oobCode": "abc", "newPassword": 16_180_339_887]),
            app.client("/v1/token", ["grant_type": "refresh_token", "refresh_token": 14_142_135_623]),
        ]
        for (answer, secret) in zip(answers, ["31415926535", "27182818284", "16180339887", "14142135623"]) {
            #expect(answer.status == 400)
            #expect(!answer.text.contains(secret), "\(answer.text)")
        }
        #expect(answers[0].errorMessage == "Invalid value at 'password' (TYPE_STRING)")
        // A field that is not a secret still shows what was wrong with it.
        let other = app.client("/v1/accounts:signInWithPassword", ["email": 12345, "password": "x"])
        #expect(other.errorMessage?.contains("12345") == true)
    }
}
