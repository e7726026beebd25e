import Foundation
import HearthCrypto
import HearthTestSupport
import Testing

/// The Identity Toolkit methods apps call with an API key, over HTTP against the real binary.
@Suite struct AccountsClientTests {
    @Test func signUpCreatesANormalisedAccountAndAnswersVerifiableTokens() throws {
        let server = try Accounts.server()
        let client = server.client()
        let response = try client.call(
            "accounts:signUp",
            [
                "email": " Alice@Example.COM", "password": "password-1", "displayName": "Alice",
                "returnSecureToken": true,
            ]
        )
        #expect(response.status == 200)
        let json = response.json
        #expect(json["kind"] as? String == "identitytoolkit#SignupNewUserResponse")
        #expect(json["email"] as? String == "alice@example.com")
        #expect(json["displayName"] as? String == "Alice")
        #expect(json["expiresIn"] as? String == "3600")
        let localID = try #require(json["localId"] as? String)
        #expect(localID.count == 28)

        let idToken = try #require(json["idToken"] as? String)
        let keys = try client.verificationKeys()
        let verified = try JWT.verify(
            idToken,
            keys: { $0.flatMap { keys[$0] } },
            now: Int64(Date().timeIntervalSince1970)
        )
        #expect(verified.header.alg == "RS256")
        #expect(verified.claims.iss == ["https://securetoken.google.com/demo-project"].first)
        #expect(verified.claims.aud == ["demo-project"])
        #expect(verified.claims.sub == localID)
        let claims = jwtClaims(idToken)
        #expect(claims["user_id"] as? String == localID)
        #expect(claims["email"] as? String == "alice@example.com")
        #expect(claims["email_verified"] as? Bool == false)
        #expect(claims["name"] as? String == "Alice")
        #expect(claims["auth_time"] as? Int == claims["iat"] as? Int)
        #expect((claims["exp"] as? Int ?? 0) - (claims["iat"] as? Int ?? 0) == 3600)
        let firebase = try #require(claims["firebase"] as? [String: Any])
        #expect(firebase["sign_in_provider"] as? String == "password")
        #expect((firebase["identities"] as? [String: Any])?["email"] as? [String] == ["alice@example.com"])
    }

    @Test func signUpRefusesTakenMalformedAndIncompleteCredentials() throws {
        let server = try Accounts.server()
        let client = server.client()
        _ = try client.signUp("taken@example.com")
        let cases: [([String: Any], String)] = [
            (["email": "TAKEN@example.com", "password": "password-1"], "EMAIL_EXISTS"),
            (
                ["email": "short@example.com", "password": "12345"],
                "WEAK_PASSWORD : Password should be at least 6 characters"
            ),
            (["email": "not-an-email", "password": "password-1"], "INVALID_EMAIL"),
            (["email": "nopassword@example.com"], "MISSING_PASSWORD"),
            (["password": "password-1"], "MISSING_EMAIL"),
        ]
        for (body, message) in cases {
            let response = try client.call("accounts:signUp", body)
            #expect(response.status == 400, "\(body)")
            #expect(response.errorMessage == message, "\(body)")
            let error = try #require(response.json["error"] as? [String: Any])
            #expect(error["code"] as? Int == 400)
            #expect(error["status"] == nil)
            let entry = try #require((error["errors"] as? [[String: Any]])?.first)
            #expect(entry["message"] as? String == message)
            #expect(entry["domain"] as? String == "global")
            #expect(entry["reason"] as? String == "invalid")
        }
    }

    @Test func theAPIKeyComesFromTheQueryOrTheHeaderAndMustBeKnown() throws {
        let server = try Accounts.server()
        let client = server.client()
        let missing = try client.call(
            "accounts:signUp",
            ["email": "a@example.com", "password": "password-1"],
            key: nil
        )
        #expect(missing.status == 403)
        #expect(missing.errorStatus == "PERMISSION_DENIED")
        let unknown = try client.call(
            "accounts:signUp",
            ["email": "a@example.com", "password": "password-1"],
            key: "nope"
        )
        #expect(unknown.status == 400)
        #expect(unknown.errorMessage?.hasPrefix("API_KEY_INVALID") == true)
        let header = try client.call(
            "accounts:signUp",
            ["email": "a@example.com", "password": "password-1"],
            key: nil,
            headers: [("x-goog-api-key", Accounts.apiKey)]
        )
        #expect(header.status == 200)
    }

    @Test func signInWithPasswordAnswersTokensAndUniformErrors() throws {
        let server = try Accounts.server()
        let client = server.client()
        let user = try client.signUp("bob@example.com", "password-1")
        let response = try client.signIn("BOB@example.com", "password-1")
        #expect(response.status == 200)
        #expect(response.json["kind"] as? String == "identitytoolkit#VerifyPasswordResponse")
        #expect(response.json["localId"] as? String == user.localID)
        #expect(response.json["registered"] as? Bool == true)
        #expect(response.json["expiresIn"] as? String == "3600")
        #expect(response.json["refreshToken"] as? String != user.refreshToken)

        #expect(try client.signIn("bob@example.com", "password-2").errorMessage == "INVALID_LOGIN_CREDENTIALS")
        #expect(try client.signIn("nobody@example.com", "password-1").errorMessage == "INVALID_LOGIN_CREDENTIALS")
        #expect(try client.signIn("bob@example.com", "").errorMessage == "MISSING_PASSWORD")
        #expect(try client.signIn("bob", "password-1").errorMessage == "INVALID_EMAIL")

        let disable = try client.admin(
            "/v1/projects/demo-project/accounts:update",
            ["localId": user.localID, "disableUser": true]
        )
        #expect(disable.status == 200)
        #expect(try client.signIn("bob@example.com", "password-1").errorMessage?.hasPrefix("USER_DISABLED") == true)
        // A wrong password says nothing about the account being disabled.
        #expect(try client.signIn("bob@example.com", "password-2").errorMessage == "INVALID_LOGIN_CREDENTIALS")
    }

    @Test func withoutEnumerationProtectionSignInSaysWhichPartWasWrong() throws {
        let server = try Accounts.server(openProject: true)
        let client = server.client()
        _ = try client.signUp("carol@example.com", key: Accounts.openAPIKey)
        #expect(
            try client.signIn("carol@example.com", "password-2", key: Accounts.openAPIKey).errorMessage
                == "INVALID_PASSWORD"
        )
        #expect(
            try client.signIn("dave@example.com", "password-1", key: Accounts.openAPIKey).errorMessage
                == "EMAIL_NOT_FOUND"
        )
    }

    @Test func lookupAnswersTheUserOfTheIDToken() throws {
        let server = try Accounts.server()
        let client = server.client()
        let user = try client.signUp("erin@example.com")
        let response = try client.call("accounts:lookup", ["idToken": user.idToken])
        #expect(response.status == 200)
        #expect(response.json["kind"] as? String == "identitytoolkit#GetAccountInfoResponse")
        let users = try #require(response.json["users"] as? [[String: Any]])
        #expect(users.count == 1)
        let info = users[0]
        #expect(info["localId"] as? String == user.localID)
        #expect(info["email"] as? String == "erin@example.com")
        #expect(info["emailVerified"] as? Bool == false)
        #expect(info["createdAt"] is String)
        #expect(info["lastLoginAt"] is String)
        #expect(info["validSince"] is String)
        #expect(info["passwordHash"] as? String == "UkVEQUNURUQ=")
        let provider = try #require((info["providerUserInfo"] as? [[String: Any]])?.first)
        #expect(provider["providerId"] as? String == "password")
        #expect(provider["rawId"] as? String == "erin@example.com")

        #expect(
            try client.call("accounts:lookup", ["idToken": "garbage"]).errorMessage?.hasPrefix("INVALID_ID_TOKEN")
                == true
        )
        #expect(try client.call("accounts:lookup", [:]).errorMessage == "MISSING_ID_TOKEN")
        // An app may not look users up by ID.
        #expect(try client.call("accounts:lookup", ["localId": [user.localID]]).errorMessage == "MISSING_ID_TOKEN")
    }

    @Test func updateChangesTheProfileAndAnswersTokensWhenAsked() throws {
        let server = try Accounts.server()
        let client = server.client()
        let user = try client.signUp("frank@example.com")
        let plain = try client.call(
            "accounts:update",
            ["idToken": user.idToken, "displayName": "Frank", "photoUrl": "https://example.com/f.png"]
        )
        #expect(plain.status == 200)
        #expect(plain.json["kind"] as? String == "identitytoolkit#SetAccountInfoResponse")
        #expect(plain.json["displayName"] as? String == "Frank")
        #expect(plain.json["photoUrl"] as? String == "https://example.com/f.png")
        #expect(plain.json["idToken"] == nil)

        let withTokens = try client.call(
            "accounts:update",
            ["idToken": user.idToken, "deleteAttribute": ["DISPLAY_NAME"], "returnSecureToken": true]
        )
        #expect(withTokens.status == 200)
        #expect(withTokens.json["displayName"] == nil)
        #expect(withTokens.json["photoUrl"] as? String == "https://example.com/f.png")
        let idToken = try #require(withTokens.json["idToken"] as? String)
        #expect(jwtClaims(idToken)["name"] == nil)
        #expect(jwtClaims(idToken)["picture"] as? String == "https://example.com/f.png")
        // A profile change continues the session: the sign-in time stays.
        #expect(jwtClaims(idToken)["auth_time"] as? Int == jwtClaims(user.idToken)["auth_time"] as? Int)
        #expect(withTokens.json["expiresIn"] as? String == "3600")

        let refused = try client.call("accounts:update", ["idToken": user.idToken, "emailVerified": true])
        #expect(refused.errorMessage?.hasPrefix("INSUFFICIENT_PERMISSION") == true)
        #expect(try client.call("accounts:update", ["displayName": "x"]).errorMessage == "MISSING_ID_TOKEN")
    }

    @Test func aNewPasswordEndsOtherSessionsAndAnswersFreshTokens() throws {
        let server = try Accounts.server()
        let client = server.client()
        let user = try client.signUp("grace@example.com", "password-1")
        // Firebase's validSince has one-second precision: move past the sign-up's second.
        try client.advanceClock(seconds: 2)
        let response = try client.call("accounts:update", ["idToken": user.idToken, "password": "password-2"])
        #expect(response.status == 200)
        let fresh = try SignedInUser(response)
        #expect(
            try client.call("accounts:lookup", ["idToken": user.idToken]).errorMessage?.hasPrefix("TOKEN_EXPIRED")
                == true
        )
        #expect(try client.call("accounts:lookup", ["idToken": fresh.idToken]).status == 200)
        let oldRefresh = try client.request(
            "POST",
            Accounts.secureToken + "?key=\(Accounts.apiKey)",
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("grant_type=refresh_token&refresh_token=\(user.refreshToken)".utf8)
        )
        #expect(oldRefresh.errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
        #expect(try client.signIn("grace@example.com", "password-1").errorMessage == "INVALID_LOGIN_CREDENTIALS")
        #expect(try client.signIn("grace@example.com", "password-2").status == 200)
        #expect(
            try client.call("accounts:update", ["idToken": fresh.idToken, "password": "short"]).errorMessage?.hasPrefix(
                "WEAK_PASSWORD"
            ) == true
        )
    }

    @Test func appsMayChangeTheEmailOnlyWithoutEnumerationProtection() throws {
        let server = try Accounts.server(openProject: true)
        let client = server.client()
        let protected = try client.signUp("henry@example.com")
        let refused = try client.call("accounts:update", ["idToken": protected.idToken, "email": "henry2@example.com"])
        #expect(refused.errorMessage == "OPERATION_NOT_ALLOWED : Please verify the new email before changing email.")

        let open = try client.signUp("ivy@example.com", key: Accounts.openAPIKey)
        _ = try client.signUp("taken@example.com", key: Accounts.openAPIKey)
        let taken = try client.call(
            "accounts:update",
            ["idToken": open.idToken, "email": "taken@example.com"],
            key: Accounts.openAPIKey
        )
        #expect(taken.errorMessage == "EMAIL_EXISTS")
        let changed = try client.call(
            "accounts:update",
            ["idToken": open.idToken, "email": "Ivy.New@example.com"],
            key: Accounts.openAPIKey
        )
        #expect(changed.status == 200)
        #expect(changed.json["email"] as? String == "ivy.new@example.com")
        #expect(changed.json["emailVerified"] as? Bool == false)
        #expect(changed.json["idToken"] is String)
        #expect(try client.signIn("ivy.new@example.com", "password-1", key: Accounts.openAPIKey).status == 200)
    }

    @Test func deleteRemovesTheAccountAndItsSessions() throws {
        let server = try Accounts.server()
        let client = server.client()
        let user = try client.signUp("jack@example.com")
        let response = try client.call("accounts:delete", ["idToken": user.idToken])
        #expect(response.status == 200)
        #expect(response.json["kind"] as? String == "identitytoolkit#DeleteAccountResponse")
        #expect(
            try client.call("accounts:lookup", ["idToken": user.idToken]).errorMessage?.hasPrefix("USER_NOT_FOUND")
                == true
        )
        let refresh = try client.json(
            "POST",
            Accounts.secureToken + "?key=\(Accounts.apiKey)",
            ["grantType": "refresh_token", "refreshToken": user.refreshToken]
        )
        #expect(refresh.errorMessage == "INVALID_REFRESH_TOKEN")
        #expect(try client.call("accounts:delete", [:]).errorMessage == "MISSING_ID_TOKEN")
        // The email is free again.
        #expect(
            try client.call("accounts:signUp", ["email": "jack@example.com", "password": "password-1"]).status == 200
        )
    }

    @Test func createAuthUriRevealsNothingUnderEnumerationProtection() throws {
        let server = try Accounts.server(openProject: true)
        let client = server.client()
        _ = try client.signUp("kate@example.com")
        let known = try client.call(
            "accounts:createAuthUri",
            ["identifier": "kate@example.com", "continueUri": "http://localhost"]
        )
        let unknown = try client.call(
            "accounts:createAuthUri",
            ["identifier": "liam@example.com", "continueUri": "http://localhost"]
        )
        #expect(known.status == 200)
        #expect(known.json["kind"] as? String == "identitytoolkit#CreateAuthUriResponse")
        #expect(Set(known.json.keys) == Set(unknown.json.keys))
        #expect(known.json["registered"] == nil)
        #expect(known.json["signinMethods"] == nil)

        _ = try client.signUp("kate@example.com", key: Accounts.openAPIKey)
        let openKnown = try client.call(
            "accounts:createAuthUri",
            ["identifier": "kate@example.com"],
            key: Accounts.openAPIKey
        )
        #expect(openKnown.json["registered"] as? Bool == true)
        #expect(openKnown.json["signinMethods"] as? [String] == ["password"])
        #expect(openKnown.json["allProviders"] as? [String] == ["password"])
        let openUnknown = try client.call(
            "accounts:createAuthUri",
            ["identifier": "liam@example.com"],
            key: Accounts.openAPIKey
        )
        #expect(openUnknown.json["registered"] as? Bool == false)

        #expect(try client.call("accounts:createAuthUri", [:]).errorMessage == "MISSING_IDENTIFIER")
        #expect(try client.call("accounts:createAuthUri", ["identifier": "nope"]).errorMessage == "INVALID_IDENTIFIER")
    }

    @Test func projectConfigListsTheAuthorizedDomains() throws {
        let server = try Accounts.server()
        let response = try server.client().request("GET", Accounts.identityToolkit + "projects?key=\(Accounts.apiKey)")
        #expect(response.status == 200)
        #expect(response.json["projectId"] as? String == "100000000000")
        #expect(response.json["authorizedDomains"] as? [String] == ["localhost", "127.0.0.1", "www.example.com"])
    }

    @Test func tenantsAreRefusedClearly() throws {
        let server = try Accounts.server()
        let response = try server.client().call(
            "accounts:signUp",
            ["email": "a@example.com", "password": "password-1", "tenantId": "t1"]
        )
        #expect(response.errorMessage == "OPERATION_NOT_ALLOWED : Tenants are not supported.")
    }
}
