import Foundation
import HearthCrypto
import HearthTestSupport
import Testing

/// Secure Token refresh and the life of a session: expiry, revocation, disabling.
@Suite struct AccountsTokenTests {
    private func refresh(
        _ client: TestHTTPClient,
        form: String? = nil,
        json: [String: Any]? = nil,
        key: String? = Accounts.apiKey,
        path: String = Accounts.secureToken
    ) throws -> TestResponse {
        let target = path + (key.map { "?key=\($0)" } ?? "")
        if let form {
            return try client.request(
                "POST",
                target,
                headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array(form.utf8)
            )
        }
        return try client.json("POST", target, json ?? [:])
    }

    @Test func aFormEncodedRefreshAnswersSnakeCaseFieldsAndTheirCamelCaseTwins() throws {
        let server = try Accounts.server()
        let client = server.client()
        let user = try client.signUp("mia@example.com")
        try client.advanceClock(seconds: 5)
        let response = try refresh(client, form: "grant_type=refresh_token&refresh_token=\(user.refreshToken)")
        #expect(response.status == 200)
        #expect(response.headers["cache-control"] == "no-store")
        let json = response.json
        let idToken = try #require(json["id_token"] as? String)
        #expect(json["access_token"] as? String == idToken)
        #expect(json["expires_in"] as? String == "3600")
        #expect(json["token_type"] as? String == "Bearer")
        #expect(json["refresh_token"] as? String == user.refreshToken)
        #expect(json["user_id"] as? String == user.localID)
        #expect(json["project_id"] as? String == "100000000000")
        #expect(json["idToken"] as? String == idToken)
        #expect(json["accessToken"] as? String == idToken)
        #expect(json["expiresIn"] as? String == "3600")
        #expect(json["refreshToken"] as? String == user.refreshToken)
        #expect(json["userId"] as? String == user.localID)
        #expect(json["projectId"] as? String == "100000000000")
        #expect(json["tokenType"] as? String == "Bearer")

        let claims = jwtClaims(idToken)
        #expect((claims["iat"] as? Int ?? 0) >= (jwtClaims(user.idToken)["iat"] as? Int ?? 0) + 5)
        // A refresh continues the session: the sign-in time is the original one.
        #expect(claims["auth_time"] as? Int == jwtClaims(user.idToken)["auth_time"] as? Int)
        let keys = try client.verificationKeys()
        let now = try #require(claims["iat"] as? Int)
        let verified = try JWT.verify(idToken, keys: { $0.flatMap { keys[$0] } }, now: Int64(now))
        #expect(verified.claims.sub == user.localID)
    }

    @Test func aJSONRefreshIsAcceptedInEitherCasingAndOnThePlainPath() throws {
        let server = try Accounts.server()
        let client = server.client()
        let user = try client.signUp("noah@example.com")
        let camel = try refresh(client, json: ["grantType": "refresh_token", "refreshToken": user.refreshToken])
        #expect(camel.status == 200)
        let snake = try refresh(client, json: ["grant_type": "refresh_token", "refresh_token": user.refreshToken])
        #expect(snake.status == 200)
        let plain = try refresh(
            client,
            json: ["grantType": "refresh_token", "refreshToken": user.refreshToken],
            path: "/v1/token"
        )
        #expect(plain.status == 200)
        #expect(plain.json["user_id"] as? String == user.localID)
    }

    @Test func refreshErrorsUseSecureTokenCodes() throws {
        let server = try Accounts.server(openProject: true)
        let client = server.client()
        let user = try client.signUp("olivia@example.com")
        #expect(try refresh(client, form: "refresh_token=\(user.refreshToken)").errorMessage == "MISSING_GRANT_TYPE")
        #expect(try refresh(client, form: "grant_type=password&refresh_token=x").errorMessage == "INVALID_GRANT_TYPE")
        #expect(try refresh(client, form: "grant_type=refresh_token").errorMessage == "MISSING_REFRESH_TOKEN")
        #expect(
            try refresh(client, form: "grant_type=refresh_token&refresh_token=made-up").errorMessage
                == "INVALID_REFRESH_TOKEN"
        )
        // A token only works with its own project's key.
        let otherProject = try refresh(
            client,
            form: "grant_type=refresh_token&refresh_token=\(user.refreshToken)",
            key: Accounts.openAPIKey
        )
        #expect(otherProject.errorMessage == "INVALID_REFRESH_TOKEN")
        let noKey = try refresh(client, form: "grant_type=refresh_token&refresh_token=\(user.refreshToken)", key: nil)
        #expect(noKey.status == 403)
    }

    @Test func anExpiredIDTokenIsRefusedAndARefreshReplacesIt() throws {
        let server = try Accounts.server()
        let client = server.client()
        let user = try client.signUp("paul@example.com")
        try client.advanceClock(seconds: 3_601)
        let expired = try client.call("accounts:lookup", ["idToken": user.idToken])
        #expect(expired.errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
        let refreshed = try refresh(client, form: "grant_type=refresh_token&refresh_token=\(user.refreshToken)")
        let idToken = try #require(refreshed.json["id_token"] as? String)
        #expect(try client.call("accounts:lookup", ["idToken": idToken]).status == 200)
    }

    @Test func movingValidSinceRevokesEarlierIDTokensAndEveryRefreshToken() throws {
        let server = try Accounts.server()
        let client = server.client()
        let user = try client.signUp("quinn@example.com")
        try client.advanceClock(seconds: 2)
        let clock = try client.request("GET", "/emulator/v1/clock").json
        let nowSeconds = (Int(clock["nowMillis"] as? String ?? "") ?? 0) / 1000
        // As firebase-admin's revoke_refresh_tokens does: validSince = now, sent as a number.
        let revoke = try client.admin(
            "/v1/projects/demo-project/accounts:update",
            ["localId": user.localID, "validSince": nowSeconds]
        )
        #expect(revoke.status == 200)
        #expect(
            try client.call("accounts:lookup", ["idToken": user.idToken]).errorMessage?.hasPrefix("TOKEN_EXPIRED")
                == true
        )
        let refused = try refresh(client, form: "grant_type=refresh_token&refresh_token=\(user.refreshToken)")
        #expect(refused.errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
        // Signing in again starts a session that works.
        let again = try SignedInUser(try client.signIn("quinn@example.com", "password-1"))
        #expect(try client.call("accounts:lookup", ["idToken": again.idToken]).status == 200)
        #expect(try refresh(client, form: "grant_type=refresh_token&refresh_token=\(again.refreshToken)").status == 200)
        let info = try client.admin("/v1/projects/demo-project/accounts:lookup", ["localId": [user.localID]])
        #expect((info.json["users"] as? [[String: Any]])?.first?["validSince"] as? String == String(nowSeconds))
    }

    @Test func disablingAUserRefusesItsRefreshTokensAndIDTokens() throws {
        let server = try Accounts.server()
        let client = server.client()
        let user = try client.signUp("ruth@example.com")
        let disable = try client.admin(
            "/v1/projects/demo-project/accounts:update",
            ["localId": user.localID, "disableUser": true]
        )
        #expect(disable.status == 200)
        let refused = try refresh(client, form: "grant_type=refresh_token&refresh_token=\(user.refreshToken)")
        #expect(refused.errorMessage?.hasPrefix("USER_DISABLED") == true)
        #expect(
            try client.call("accounts:lookup", ["idToken": user.idToken]).errorMessage?.hasPrefix("USER_DISABLED")
                == true
        )
        // Enabling again does not revive the revoked session.
        _ = try client.admin(
            "/v1/projects/demo-project/accounts:update",
            ["localId": user.localID, "disableUser": false]
        )
        let stillRevoked = try refresh(client, form: "grant_type=refresh_token&refresh_token=\(user.refreshToken)")
        #expect(stillRevoked.errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
    }

    @Test func aRotatedSigningKeyKeepsEarlierIDTokensValid() throws {
        let server = try Accounts.server()
        let client = server.client()
        let user = try client.signUp("sam@example.com")
        let rotate = try client.admin("/hearth/v1/projects/demo-project/signingKeys:rotate", ["purpose": "idTokens"])
        #expect(rotate.status == 200)
        let newKeyID = try #require(rotate.json["keyId"] as? String)
        #expect(try client.call("accounts:lookup", ["idToken": user.idToken]).status == 200)
        let refreshed = try refresh(client, form: "grant_type=refresh_token&refresh_token=\(user.refreshToken)")
        let idToken = try #require(refreshed.json["id_token"] as? String)
        let header = try #require(Base64URL.decode(idToken.split(separator: ".")[0]))
        let headerJSON = try JSONSerialization.jsonObject(with: Data(header)) as? [String: Any]
        #expect(headerJSON?["kid"] as? String == newKeyID)
    }
}
