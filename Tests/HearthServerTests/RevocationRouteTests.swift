import HearthBase
import HearthHTTP
import Testing

/// Revocation on the wire: `accounts:update` with `validSince` (as firebase-admin's
/// `revoke_refresh_tokens` sends it), a password change and disabling end every session that
/// exists, even one begun in the same second; the Secure Token endpoint then answers
/// `TOKEN_EXPIRED`, and a sign-in after the revocation works. The clock starts on a whole second.
@Suite("Revocation, in-process")
struct RevocationRouteTests {
    @Test("validSince of the current second refuses a refresh token issued earlier in that second")
    func validSinceOfTheSameSecond() throws {
        let app = try TestApplication()
        app.clock.advance(milliseconds: 120)
        let session = try app.signUp("ada@example.com")
        let localID = try #require(session["localId"]?.stringValue)
        let refreshToken = try #require(session["refreshToken"]?.stringValue)
        let idToken = try #require(session["idToken"]?.stringValue)
        #expect(app.refresh(refreshToken).status == 200)

        app.clock.advance(milliseconds: 300)
        let second = app.nowSeconds
        let revoke = app.admin(
            .post,
            "/v1/projects/demo-project/accounts:update",
            ["localId": .string(localID), "validSince": .int(second)]
        )
        #expect(revoke.status == 200)

        let refused = app.refresh(refreshToken)
        #expect(refused.status == 400)
        #expect(refused.errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
        // validSince is answered in whole seconds, and the ID token of that second still passes
        // the seconds rule, as firebase-admin's check_revoked sees it against Firebase.
        #expect(app.adminUser(localID)["validSince"]?.stringValue == String(second))
        #expect(app.client("/v1/accounts:lookup", ["idToken": .string(idToken)]).status == 200)

        app.clock.advance(milliseconds: 1)
        let again = app.signIn("ada@example.com")
        #expect(again.status == 200)
        let fresh = try #require(again.json["refreshToken"]?.stringValue)
        #expect(app.refresh(fresh).status == 200)
    }

    @Test("validSince as a decimal string revokes the same way")
    func validSinceAsAString() throws {
        let app = try TestApplication()
        let session = try app.signUp("bea@example.com")
        let localID = try #require(session["localId"]?.stringValue)
        let refreshToken = try #require(session["refreshToken"]?.stringValue)
        app.clock.advance(milliseconds: 10)
        app.admin(
            .post,
            "/v1/projects/demo-project/accounts:update",
            ["localId": .string(localID), "validSince": .string(String(app.nowSeconds))]
        )
        #expect(app.refresh(refreshToken).errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
    }

    @Test("a password change in the second of the sign-up ends the old session and keeps the new one")
    func passwordChangeInTheSameSecond() throws {
        let app = try TestApplication()
        let session = try app.signUp("cy@example.com")
        let oldRefresh = try #require(session["refreshToken"]?.stringValue)
        let idToken = try #require(session["idToken"]?.stringValue)
        app.clock.advance(milliseconds: 50)
        let changed = app.client(
            "/v1/accounts:update",
            ["idToken": .string(idToken), "password": "another horse battery", "returnSecureToken": true]
        )
        #expect(changed.status == 200)
        let newRefresh = try #require(changed.json["refreshToken"]?.stringValue)
        #expect(app.refresh(oldRefresh).errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
        #expect(app.refresh(newRefresh).status == 200)
    }

    @Test("disabling in the second of the sign-up ends the session for good, and a later sign-in works")
    func disablingInTheSameSecond() throws {
        let app = try TestApplication()
        let session = try app.signUp("di@example.com")
        let localID = try #require(session["localId"]?.stringValue)
        let refreshToken = try #require(session["refreshToken"]?.stringValue)
        app.clock.advance(milliseconds: 5)
        let path = "/v1/projects/demo-project/accounts:update"
        app.admin(.post, path, ["localId": .string(localID), "disableUser": true])
        #expect(app.refresh(refreshToken).errorMessage?.hasPrefix("USER_DISABLED") == true)
        app.admin(.post, path, ["localId": .string(localID), "disableUser": false])
        #expect(app.refresh(refreshToken).errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
        app.clock.advance(milliseconds: 1)
        let again = try #require(app.signIn("di@example.com").json["refreshToken"]?.stringValue)
        #expect(app.refresh(again).status == 200)
    }
}
