import Dispatch
import Foundation
import HearthTestSupport
import Synchronization
import Testing

/// Email actions over HTTP against the real binary: every request type, codes (single use,
/// expiry, binding to the address), the continue-URL rules, enumeration protection, limits.
@Suite struct EmailActionsTests {
    @Test func theSeedExampleMailsAHostingLinkThatUnwrapsAndVerifiesTheEmail() throws {
        let server = try EmailActions.server()
        let client = server.client()
        let user = try client.signUp("user@example.com")
        let sent = try client.sendOobCode([
            "requestType": "VERIFY_EMAIL", "idToken": user.idToken,
            "continueUrl": "https://www.example.com/?email=user@example.com", "canHandleCodeInApp": true,
            "iOSBundleId": "com.example.ios", "androidPackageName": "com.example.android", "androidInstallApp": true,
            "linkDomain": "custom-domain.com",
        ])
        #expect(sent.status == 200, "\(sent.text)")
        #expect(sent.json["email"] as? String == "user@example.com")
        #expect(sent.json["oobCode"] == nil)
        let pending = try #require(try client.pendingCode("VERIFY_EMAIL", for: "user@example.com"))
        let link = pending.oobLink
        #expect(link.hasPrefix("https://custom-domain.com/__/auth/links?link="))
        let inner = try #require(queryParameters(link)["link"])
        #expect(inner.hasPrefix("http://127.0.0.1:\(server.port)/__/auth/action?"))
        let parameters = queryParameters(inner)
        #expect(parameters["mode"] == "verifyEmail")
        #expect(parameters["apiKey"] == "demo-api-key")
        #expect(parameters["continueUrl"] == "https://www.example.com/?email=user@example.com")
        #expect(parameters["lang"] == "en")
        #expect(parameters["oobCode"] == pending.oobCode)
        // The message itself carries the same link.
        let messages = try client.admin("/hearth/v1/projects/demo-project/mail/messages", [:], method: "GET")
        #expect(messages.text.contains("VERIFY_EMAIL"))

        let applied = try client.call("accounts:update", ["oobCode": try #require(parameters["oobCode"])])
        #expect(applied.status == 200, "\(applied.text)")
        #expect(applied.json["emailVerified"] as? Bool == true)
        let lookup = try client.call("accounts:lookup", ["idToken": user.idToken])
        #expect((lookup.json["users"] as? [[String: Any]])?.first?["emailVerified"] as? Bool == true)
        #expect(try client.pendingCode("VERIFY_EMAIL", for: "user@example.com") == nil)
    }

    @Test func aPasswordResetCodeIsInspectedThenUsedOnceAndEndsOtherSessions() throws {
        let server = try EmailActions.server()
        let client = server.client()
        let user = try client.signUp("reset@example.com", "old-password")
        #expect(try client.sendOobCode(["requestType": "PASSWORD_RESET", "email": "Reset@Example.com"]).status == 200)
        #expect(try client.sendOobCode(["requestType": "PASSWORD_RESET", "email": "reset@example.com"]).status == 200)
        let codes = try client.pendingCodes().filter { $0.requestType == "PASSWORD_RESET" }
        #expect(codes.count == 2)
        let code = codes[1].oobCode

        let inspected = try client.call("accounts:resetPassword", ["oobCode": code])
        #expect(inspected.status == 200)
        #expect(inspected.json["requestType"] as? String == "PASSWORD_RESET")
        #expect(inspected.json["email"] as? String == "reset@example.com")

        let weak = try client.call("accounts:resetPassword", ["oobCode": code, "newPassword": "123"])
        #expect(weak.errorMessage?.hasPrefix("WEAK_PASSWORD") == true)
        let reset = try client.call("accounts:resetPassword", ["oobCode": code, "newPassword": "new-password"])
        #expect(reset.status == 200, "\(reset.text)")
        #expect(reset.json["email"] as? String == "reset@example.com")

        let again = try client.call("accounts:resetPassword", ["oobCode": code, "newPassword": "other-password"])
        #expect(again.errorMessage?.hasPrefix("INVALID_OOB_CODE") == true)
        // The other reset link in the mailbox stopped working too.
        let older = try client.call(
            "accounts:resetPassword",
            ["oobCode": codes[0].oobCode, "newPassword": "x-password"]
        )
        #expect(older.errorMessage?.hasPrefix("INVALID_OOB_CODE") == true)
        // Old sessions are over; the new password signs in.
        let refresh = try client.request(
            "POST",
            Accounts.secureToken + "?key=demo-api-key",
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("grant_type=refresh_token&refresh_token=\(user.refreshToken)".utf8)
        )
        #expect(refresh.errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
        let signIn = try client.call(
            "accounts:signInWithPassword",
            ["email": "reset@example.com", "password": "new-password"]
        )
        #expect(signIn.status == 200)
    }

    @Test func aPasswordChangeVoidsTheResetLinksAlreadyMailed() throws {
        let server = try EmailActions.server()
        let client = server.client()
        let user = try client.signUp("changed@example.com", "old-password")
        try client.sendOobCode(["requestType": "PASSWORD_RESET", "email": "changed@example.com"])
        let before = try #require(try client.pendingCode("PASSWORD_RESET", for: "changed@example.com")).oobCode
        let changed = try client.call("accounts:update", ["idToken": user.idToken, "password": "changed-password"])
        #expect(changed.status == 200, "\(changed.text)")

        let stale = try client.call("accounts:resetPassword", ["oobCode": before, "newPassword": "stale-password"])
        #expect(stale.errorMessage?.hasPrefix("INVALID_OOB_CODE") == true)
        #expect(
            try client.call("accounts:resetPassword", ["oobCode": before]).errorMessage?.hasPrefix("INVALID_OOB_CODE")
                == true
        )
        #expect(try client.pendingCodes().allSatisfy { $0.oobCode != before })
        // A link asked for after the change works.
        try client.sendOobCode(["requestType": "PASSWORD_RESET", "email": "changed@example.com"])
        let after = try #require(
            try client.pendingCodes().last { $0.requestType == "PASSWORD_RESET" && $0.oobCode != before }
        ).oobCode
        let reset = try client.call("accounts:resetPassword", ["oobCode": after, "newPassword": "fresh-password"])
        #expect(reset.status == 200, "\(reset.text)")
    }

    @Test func anExpiredCodeIsExpiredAndAnUnknownOneInvalid() throws {
        let server = try EmailActions.server()
        let client = server.client()
        _ = try client.signUp("late@example.com")
        try client.sendOobCode(["requestType": "PASSWORD_RESET", "email": "late@example.com"])
        let code = try #require(try client.pendingCode("PASSWORD_RESET", for: "late@example.com")).oobCode
        #expect(try client.json("POST", "/emulator/v1/clock", ["advanceSeconds": 3_601]).status == 200)
        let expired = try client.call("accounts:resetPassword", ["oobCode": code, "newPassword": "new-password"])
        #expect(expired.errorMessage?.hasPrefix("EXPIRED_OOB_CODE") == true)
        #expect(
            try client.call("accounts:resetPassword", ["oobCode": code]).errorMessage?.hasPrefix("EXPIRED_OOB_CODE")
                == true
        )
        let unknown = try client.call("accounts:resetPassword", ["oobCode": "not-a-code"])
        #expect(unknown.status == 400)
        #expect(unknown.errorMessage?.hasPrefix("INVALID_OOB_CODE") == true)
        #expect(try client.call("accounts:resetPassword", [:]).errorMessage?.hasPrefix("MISSING_OOB_CODE") == true)
    }

    @Test func aCodeForAnAddressThatHasSinceChangedIsInvalid() throws {
        let server = try EmailActions.server()
        let client = server.client()
        let user = try client.signUp("moving@example.com")
        try client.sendOobCode(["requestType": "VERIFY_EMAIL", "idToken": user.idToken])
        let code = try #require(try client.pendingCode("VERIFY_EMAIL", for: "moving@example.com")).oobCode
        let moved = try client.admin(
            "/v1/projects/demo-project/accounts:update",
            ["localId": user.localID, "email": "moved@example.com"]
        )
        #expect(moved.status == 200, "\(moved.text)")
        #expect(
            try client.call("accounts:update", ["oobCode": code]).errorMessage?.hasPrefix("INVALID_OOB_CODE") == true
        )
    }

    @Test func anEmailLinkSignsInOrCreatesTheUserOnceAndOnlyForItsAddress() throws {
        let server = try EmailActions.server()
        let client = server.client()
        let sent = try client.sendOobCode([
            "requestType": 6, "email": "newcomer@example.com", "continue_url": "http://localhost:3000/finish",
            "can_handle_code_in_app": true,
        ])
        #expect(sent.status == 200, "\(sent.text)")
        let pending = try #require(try client.pendingCode("EMAIL_SIGNIN", for: "newcomer@example.com"))
        #expect(actionCode(in: pending.oobLink) == pending.oobCode)
        let mismatch = try client.call(
            "accounts:signInWithEmailLink",
            ["email": "someone-else@example.com", "oobCode": pending.oobCode]
        )
        #expect(mismatch.errorMessage?.hasPrefix("INVALID_EMAIL") == true)
        let signedIn = try client.call(
            "accounts:signInWithEmailLink",
            ["email": "Newcomer@Example.com", "oobCode": pending.oobCode]
        )
        #expect(signedIn.status == 200, "\(signedIn.text)")
        #expect(signedIn.json["isNewUser"] as? Bool == true)
        #expect(signedIn.json["email"] as? String == "newcomer@example.com")
        #expect(signedIn.json["idToken"] is String)
        let lookup = try client.call("accounts:lookup", ["idToken": signedIn.json["idToken"] as! String])
        #expect((lookup.json["users"] as? [[String: Any]])?.first?["emailVerified"] as? Bool == true)
        let again = try client.call(
            "accounts:signInWithEmailLink",
            ["email": "newcomer@example.com", "oobCode": pending.oobCode]
        )
        #expect(again.errorMessage?.hasPrefix("INVALID_OOB_CODE") == true)
    }

    @Test func aNewPasswordResetCodeLeavesSignInLinksWorking() throws {
        let server = try EmailActions.server()
        let client = server.client()
        _ = try client.signUp("both@example.com")
        try client.sendOobCode([
            "requestType": "EMAIL_SIGNIN", "email": "both@example.com", "continueUrl": "http://localhost/",
        ])
        try client.sendOobCode(["requestType": "PASSWORD_RESET", "email": "both@example.com"])
        let signInCode = try #require(try client.pendingCode("EMAIL_SIGNIN", for: "both@example.com")).oobCode
        let signedIn = try client.call(
            "accounts:signInWithEmailLink",
            ["email": "both@example.com", "oobCode": signInCode]
        )
        #expect(signedIn.status == 200)
        #expect(signedIn.json["isNewUser"] as? Bool == false)
    }

    @Test func verifyAndChangeEmailChangesTheAddressAndTheOldOneCanUndoIt() throws {
        let server = try EmailActions.server()
        let client = server.client()
        let user = try client.signUp("old@example.com")
        let sent = try client.sendOobCode([
            "requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.idToken, "newEmail": "New@Example.com",
        ])
        #expect(sent.status == 200, "\(sent.text)")
        let change = try #require(try client.pendingCodes().last { $0.requestType == "VERIFY_AND_CHANGE_EMAIL" })
        #expect(change.newEmail == "new@example.com")
        let inspected = try client.call("accounts:resetPassword", ["oobCode": change.oobCode])
        #expect(inspected.json["email"] as? String == "old@example.com")
        #expect(inspected.json["newEmail"] as? String == "new@example.com")

        let applied = try client.call("accounts:update", ["oobCode": change.oobCode])
        #expect(applied.status == 200, "\(applied.text)")
        #expect(applied.json["email"] as? String == "new@example.com")
        #expect(applied.json["emailVerified"] as? Bool == true)

        let recover = try #require(try client.pendingCode("RECOVER_EMAIL", for: "old@example.com"))
        #expect(recover.newEmail == "new@example.com")
        let recoverInfo = try client.call("accounts:resetPassword", ["oobCode": recover.oobCode])
        #expect(recoverInfo.json["requestType"] as? String == "RECOVER_EMAIL")
        let restored = try client.call("accounts:update", ["oobCode": recover.oobCode])
        #expect(restored.status == 200, "\(restored.text)")
        #expect(restored.json["email"] as? String == "old@example.com")
        let account = try client.admin("/v1/projects/demo-project/accounts:lookup", ["localId": [user.localID]])
        #expect((account.json["users"] as? [[String: Any]])?.first?["email"] as? String == "old@example.com")
    }

    @Test func changingToATakenAddressIsSilentForAppsUnderProtectionAndRefusedOtherwise() throws {
        let server = try EmailActions.server()
        let client = server.client()
        let user = try client.signUp("first@example.com")
        _ = try client.signUp("taken@example.com")
        let silent = try client.sendOobCode([
            "requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.idToken, "newEmail": "taken@example.com",
        ])
        #expect(silent.status == 200)
        #expect(try client.pendingCodes().contains { $0.requestType == "VERIFY_AND_CHANGE_EMAIL" } == false)
        let admin = try client.admin(
            "/v1/projects/demo-project/accounts:sendOobCode",
            [
                "requestType": "VERIFY_AND_CHANGE_EMAIL", "email": "first@example.com", "newEmail": "taken@example.com",
                "returnOobLink": true,
            ]
        )
        #expect(admin.errorMessage?.hasPrefix("EMAIL_EXISTS") == true)
    }

    @Test func addressesNoMailCanReachAreRefusedAlikeWhetherOrNotAnAccountHasThem() throws {
        // Accounts may hold a non-ASCII local part (Firebase accepts one); mail cannot be
        // addressed to it. This used to be a 500 for a known address and a 200 for an unknown
        // one, which also told apps which addresses have accounts.
        let server = try EmailActions.server()
        let client = server.client()
        let user = try client.signUp("josé@example.com")
        let known = try client.sendOobCode(["requestType": "PASSWORD_RESET", "email": "josé@example.com"])
        let unknown = try client.sendOobCode(["requestType": "PASSWORD_RESET", "email": "zoë@example.com"])
        #expect(known.status == 400 && known.errorMessage?.hasPrefix("INVALID_EMAIL") == true, "\(known.text)")
        #expect(unknown.status == known.status && unknown.errorMessage == known.errorMessage, "\(unknown.text)")
        let signIn = try client.sendOobCode(["requestType": "EMAIL_SIGNIN", "email": "café@example.com"])
        #expect(signIn.errorMessage?.hasPrefix("INVALID_EMAIL") == true, "\(signIn.text)")
        let verify = try client.sendOobCode(["requestType": "VERIFY_EMAIL", "idToken": user.idToken])
        #expect(verify.errorMessage?.hasPrefix("INVALID_EMAIL") == true, "\(verify.text)")
        let toUnreachable = try client.sendOobCode([
            "requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.idToken, "newEmail": "zoë@example.com",
        ])
        #expect(toUnreachable.errorMessage?.hasPrefix("INVALID_EMAIL") == true, "\(toUnreachable.text)")
        #expect(try client.pendingCodes().isEmpty)

        // An admin asking for the link (no mail) still gets it.
        let link = try client.admin(
            "/v1/projects/demo-project/accounts:sendOobCode",
            ["requestType": "PASSWORD_RESET", "email": "josé@example.com", "returnOobLink": true]
        )
        #expect(link.status == 200 && (link.json["oobLink"] as? String)?.contains("oobCode=") == true, "\(link.text)")

        // Moving to a reachable address works; no recovery email can go to the old one.
        let change = try client.sendOobCode([
            "requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.idToken, "newEmail": "jose@example.com",
        ])
        #expect(change.status == 200, "\(change.text)")
        let code = try #require(try client.pendingCode("VERIFY_AND_CHANGE_EMAIL", for: "josé@example.com"))
        let applied = try client.call("accounts:update", ["oobCode": code.oobCode])
        #expect(applied.status == 200 && applied.json["email"] as? String == "jose@example.com", "\(applied.text)")
        #expect(try client.pendingCodes().contains { $0.requestType == "RECOVER_EMAIL" } == false)
    }

    @Test func enumerationProtectionAnswersUnknownAddressesLikeKnownOnesAndSendsNothing() throws {
        let server = try EmailActions.server()
        let client = server.client()
        let unknown = try client.sendOobCode(["requestType": "PASSWORD_RESET", "email": "nobody@example.com"])
        #expect(unknown.status == 200)
        #expect(unknown.json["email"] as? String == "nobody@example.com")
        #expect(try client.pendingCodes().isEmpty)
        let messages = try client.admin("/hearth/v1/projects/demo-project/mail/messages", [:], method: "GET")
        #expect((messages.json["messages"] as? [Any])?.isEmpty == true)
        // Without protection (limits-project) the truth is told.
        let open = try client.sendOobCode(
            ["requestType": "PASSWORD_RESET", "email": "nobody@example.com"],
            key: EmailActions.limitsAPIKey
        )
        #expect(open.errorMessage?.hasPrefix("EMAIL_NOT_FOUND") == true)
    }

    @Test func aDisabledAccountGetsNoResetCodeAndAdminsAreToldWhy() throws {
        // The account is looked up inside the send's write: the change just made counts.
        let server = try EmailActions.server()
        let client = server.client()
        let user = try client.signUp("ruth@example.com")
        func setDisabled(_ disabled: Bool) throws {
            let update = try client.admin(
                "/v1/projects/demo-project/accounts:update",
                ["localId": user.localID, "disableUser": disabled]
            )
            #expect(update.status == 200, "\(update.text)")
        }
        try setDisabled(true)
        let hidden = try client.sendOobCode(["requestType": "PASSWORD_RESET", "email": "ruth@example.com"])
        #expect(hidden.status == 200 && hidden.json["email"] as? String == "ruth@example.com", "\(hidden.text)")
        #expect(try client.pendingCode("PASSWORD_RESET", for: "ruth@example.com") == nil)
        let told = try client.admin(
            "/v1/projects/demo-project/accounts:sendOobCode",
            ["requestType": "PASSWORD_RESET", "email": "ruth@example.com", "returnOobLink": true]
        )
        #expect(told.errorMessage?.hasPrefix("USER_DISABLED") == true, "\(told.text)")
        try setDisabled(false)
        #expect(try client.sendOobCode(["requestType": "PASSWORD_RESET", "email": "ruth@example.com"]).status == 200)
        #expect(try client.pendingCode("PASSWORD_RESET", for: "ruth@example.com") != nil)
    }

    @Test func sendLimitsPerRecipientAndPerClientAddressHold() throws {
        let server = try EmailActions.server()
        let client = server.client()
        let key = EmailActions.limitsAPIKey
        func signInLink(_ email: String) throws -> TestResponse {
            try client.sendOobCode(
                ["requestType": "EMAIL_SIGNIN", "email": email, "continueUrl": "https://app.example.org/"],
                key: key
            )
        }
        #expect(try signInLink("a@example.com").status == 200)
        #expect(try signInLink("a@example.com").status == 200)
        let third = try signInLink("a@example.com")
        #expect(third.status == 400)
        #expect(third.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true)
        // A refused request sends nothing and counts nothing; this client address has asked
        // for 2 of its 4 emails.
        #expect(try signInLink("b@example.com").status == 200)
        #expect(try signInLink("c@example.com").status == 200)
        #expect(try signInLink("d@example.com").errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true)
        // Limits are per window: an hour later the address may ask again.
        #expect(try client.json("POST", "/emulator/v1/clock", ["advanceSeconds": 3_600]).status == 200)
        #expect(try signInLink("d@example.com").status == 200)
    }

    @Test func everyActionCodeSettingsErrorIsReportedAndNothingIsStored() throws {
        let server = try EmailActions.server()
        let client = server.client()
        _ = try client.signUp("settings@example.com")
        let cases: [([String: Any], String)] = [
            (["continueUrl": "https://evil.example.net/"], "UNAUTHORIZED_DOMAIN"),
            (["continueUrl": "https://www.example.com.evil.net/"], "UNAUTHORIZED_DOMAIN"),
            (["continueUrl": "javascript:alert(1)"], "INVALID_CONTINUE_URI"),
            (["continueUrl": "https://user@www.example.com/"], "INVALID_CONTINUE_URI"),
            (["continueUrl": "/relative"], "INVALID_CONTINUE_URI"),
            (["canHandleCodeInApp": true], "MISSING_CONTINUE_URI"),
            (["continueUrl": "https://www.example.com/", "iOSBundleId": "com.attacker"], "INVALID_IOS_BUNDLE_ID"),
            (["continueUrl": "https://www.example.com/", "iOSAppStoreId": "123"], "MISSING_IOS_BUNDLE_ID"),
            (
                ["continueUrl": "https://www.example.com/", "androidPackageName": "com.attacker"],
                "INVALID_ANDROID_PACKAGE_NAME"
            ),
            (["continueUrl": "https://www.example.com/", "androidInstallApp": true], "MISSING_ANDROID_PACKAGE_NAME"),
            (
                ["continueUrl": "https://www.example.com/", "canHandleCodeInApp": true, "linkDomain": "evil.net"],
                "INVALID_HOSTING_LINK_DOMAIN"
            ),
            (
                ["continueUrl": "https://www.example.com/", "dynamicLinkDomain": "x.page.link"],
                "INVALID_DYNAMIC_LINK_DOMAIN"
            ),
        ]
        for (settings, code) in cases {
            var body: [String: Any] = ["requestType": "PASSWORD_RESET", "email": "settings@example.com"]
            body.merge(settings) { $1 }
            let response = try client.sendOobCode(body)
            #expect(response.status == 400, "\(settings)")
            #expect(response.errorMessage?.hasPrefix(code) == true, "\(settings): \(response.text)")
        }
        #expect(try client.pendingCodes().isEmpty)
    }

    @Test func malformedRequestsGetTheirCodes() throws {
        let server = try EmailActions.server()
        let client = server.client()
        #expect(try client.sendOobCode(["email": "x@example.com"]).errorMessage?.hasPrefix("MISSING_REQ_TYPE") == true)
        #expect(
            try client.sendOobCode(["requestType": "RECOVER_EMAIL", "email": "x@example.com"]).errorMessage?.hasPrefix(
                "INVALID_REQ_TYPE"
            ) == true
        )
        #expect(try client.sendOobCode(["requestType": "BOGUS"]).status == 400)
        #expect(
            try client.sendOobCode(["requestType": "PASSWORD_RESET"]).errorMessage?.hasPrefix("MISSING_EMAIL") == true
        )
        #expect(
            try client.sendOobCode(["requestType": "PASSWORD_RESET", "email": "not-an-email"]).errorMessage?.hasPrefix(
                "INVALID_EMAIL"
            ) == true
        )
        #expect(
            try client.sendOobCode(["requestType": "VERIFY_EMAIL"]).errorMessage?.hasPrefix("MISSING_ID_TOKEN") == true
        )
        #expect(
            try client.sendOobCode(["requestType": "VERIFY_EMAIL", "idToken": "garbage"]).errorMessage?.hasPrefix(
                "INVALID_ID_TOKEN"
            ) == true
        )
        #expect(
            try client.sendOobCode(["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": "x"]).errorMessage?.hasPrefix(
                "MISSING_NEW_EMAIL"
            ) == true
        )
        #expect(
            try client.sendOobCode(["requestType": "EMAIL_SIGNIN", "email": "x@example.com"], key: "wrong-key")
                .errorMessage?.hasPrefix("API_KEY_INVALID") == true
        )
        let bad = try client.request(
            "POST",
            Accounts.identityToolkit + "accounts:sendOobCode?key=demo-api-key",
            body: Array("{not json".utf8)
        )
        #expect(bad.status == 400)
    }

    @Test func onlyAdminsMayAskForTheLinkInsteadOfAnEmail() throws {
        let server = try EmailActions.server()
        let client = server.client()
        _ = try client.signUp("linked@example.com")
        let app = try client.sendOobCode([
            "requestType": "PASSWORD_RESET", "email": "linked@example.com", "returnOobLink": true,
        ])
        #expect(app.errorMessage?.hasPrefix("INSUFFICIENT_PERMISSION") == true)
        let admin = try client.admin(
            "/v1/projects/demo-project/accounts:sendOobCode",
            [
                "requestType": "PASSWORD_RESET", "email": "linked@example.com", "returnOobLink": true,
                "continueUrl": "https://www.example.com/done",
            ]
        )
        #expect(admin.status == 200, "\(admin.text)")
        let code = try #require(admin.json["oobCode"] as? String)
        let link = try #require(admin.json["oobLink"] as? String)
        #expect(actionCode(in: link) == code)
        #expect(queryParameters(link)["continueUrl"] == "https://www.example.com/done")
        // Nothing was mailed.
        let messages = try client.admin("/hearth/v1/projects/demo-project/mail/messages", [:], method: "GET")
        #expect((messages.json["messages"] as? [Any])?.isEmpty == true)
        #expect(
            try client.call("accounts:resetPassword", ["oobCode": code, "newPassword": "linked-password"]).status == 200
        )
        let missingUser = try client.admin(
            "/v1/projects/demo-project/accounts:sendOobCode",
            ["requestType": "VERIFY_EMAIL", "email": "ghost@example.com", "returnOobLink": true]
        )
        #expect(missingUser.errorMessage?.hasPrefix("USER_NOT_FOUND") == true)
    }

    @Test func legacyPathsAndLanguagesWork() throws {
        let server = try EmailActions.server()
        let client = server.client()
        _ = try client.signUp("legacy@example.com")
        let sent = try client.call(
            "getOobConfirmationCode",
            ["requestType": 1, "email": "legacy@example.com"],
            prefix: Accounts.legacy,
            headers: [("X-Firebase-Locale", "it-CH")]
        )
        #expect(sent.status == 200, "\(sent.text)")
        let pending = try #require(try client.pendingCode("PASSWORD_RESET", for: "legacy@example.com"))
        #expect(queryParameters(pending.oobLink)["lang"] == "it")
        let inspected = try client.call("resetPassword", ["oobCode": pending.oobCode], prefix: Accounts.legacy)
        #expect(inspected.json["requestType"] as? String == "PASSWORD_RESET")

        try client.call(
            "getOobConfirmationCode",
            ["requestType": "EMAIL_SIGNIN", "email": "legacy@example.com"],
            prefix: Accounts.legacy,
            headers: [("Accept-Language", "fa-IR,en;q=0.5")]
        )
        let signIn = try #require(try client.pendingCode("EMAIL_SIGNIN", for: "legacy@example.com"))
        #expect(queryParameters(signIn.oobLink)["lang"] == "fa")
        let linked = try client.call(
            "emailLinkSignin",
            ["email": "legacy@example.com", "oobCode": signIn.oobCode],
            prefix: Accounts.legacy
        )
        #expect(linked.status == 200, "\(linked.text)")
        let idToken = try #require(linked.json["idToken"] as? String)
        try client.call(
            "getOobConfirmationCode",
            ["requestType": "VERIFY_EMAIL", "idToken": idToken],
            prefix: Accounts.legacy
        )
        // The link sign-in verified the address already; the code still applies cleanly.
        let verify = try #require(try client.pendingCode("VERIFY_EMAIL", for: "legacy@example.com"))
        let applied = try client.call("setAccountInfo", ["oobCode": verify.oobCode], prefix: Accounts.legacy)
        #expect(applied.status == 200, "\(applied.text)")
    }

    @Test func racingUsesOfOneCodeSucceedExactlyOnce() throws {
        let server = try EmailActions.server()
        let setup = server.client()
        try setup.sendOobCode([
            "requestType": "EMAIL_SIGNIN", "email": "race@example.com", "continueUrl": "http://localhost/",
        ])
        let code = try #require(try setup.pendingCode("EMAIL_SIGNIN", for: "race@example.com")).oobCode
        let successes = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let client = server.client()
            if let response = try? client.call(
                "accounts:signInWithEmailLink",
                ["email": "race@example.com", "oobCode": code]
            ),
                response.status == 200
            {
                successes.add(1, ordering: .relaxed)
            }
        }
        #expect(successes.load(ordering: .relaxed) == 1)
    }
}
