import Foundation
import HearthTestSupport
import HearthTransport
import Testing

@testable import Hearth

@Suite("Auth against a real hearth server")
struct AuthTests {
    /// The seed's continue URL, app IDs and link domain, as the seed documents use them.
    static func seedSettings(handleCodeInApp: Bool = false) -> ActionCodeSettings {
        let settings = ActionCodeSettings()
        settings.url = URL(string: "https://www.example.com/finish")
        settings.handleCodeInApp = handleCodeInApp
        settings.iOSBundleID = "com.example.ios"
        settings.setAndroidPackageName("com.example.android", installIfNotAvailable: false, minimumVersion: "12")
        settings.linkDomain = "custom-domain.com"
        return settings
    }

    @Test("createUser and signIn sign the user in; wrong passwords and taken emails are typed errors")
    func passwordAccounts() async throws {
        let harness = try ClientHarness()
        let auth = Auth(app: harness.makeApp())
        let created = try await auth.createUser(withEmail: "ada@example.com", password: "correct horse")
        #expect(created.additionalUserInfo?.isNewUser == true)
        #expect(created.additionalUserInfo?.providerID == "password")
        #expect(auth.currentUser?.uid == created.user.uid)
        #expect(created.user.email == "ada@example.com")
        #expect(!created.user.isEmailVerified)

        try auth.signOut()
        #expect(auth.currentUser == nil)
        let signedIn = try await auth.signIn(withEmail: "ada@example.com", password: "correct horse")
        #expect(signedIn.user.uid == created.user.uid)
        #expect(signedIn.additionalUserInfo?.isNewUser == false)

        await #expect { _ = try await auth.signIn(withEmail: "ada@example.com", password: "wrong horse") } throws: {
            let code = ($0 as? AuthErrorCode)?.code
            return code == .wrongPassword || code == .invalidCredential
        }
        await #expect { _ = try await auth.createUser(withEmail: "ada@example.com", password: "another one") } throws: {
            ($0 as? AuthErrorCode)?.code == .emailAlreadyInUse
        }
        await #expect { _ = try await auth.createUser(withEmail: "bob@example.com", password: "123") } throws: {
            ($0 as? AuthErrorCode)?.code == .weakPassword
        }
        // Email enumeration protection: an unknown address is answered like a known one, and no code is made.
        try await auth.sendPasswordReset(withEmail: "nobody@example.com")
        #expect(try harness.outbox().allSatisfy { $0["email"] as? String != "nobody@example.com" })
    }

    @Test(
        "The server's TOO_MANY_ATTEMPTS_TRY_LATER after repeated wrong passwords is tooManyRequests; the right one signs in once the wait is over"
    )
    func tooManyWrongPasswords() async throws {
        let harness = try ClientHarness()
        let auth = Auth(app: harness.makeApp())
        _ = try await auth.createUser(withEmail: "eve@example.com", password: "correct horse")
        try auth.signOut()
        var refusals: [AuthErrorCode.Code] = []
        while refusals.last != .tooManyRequests && refusals.count < 20 {
            do {
                _ = try await auth.signIn(withEmail: "eve@example.com", password: "wrong horse \(refusals.count)")
            } catch let error as AuthErrorCode {
                refusals.append(error.code)
            }
        }
        #expect(refusals.last == .tooManyRequests, "\(refusals)")
        #expect(refusals.dropLast().allSatisfy { $0 == .wrongPassword || $0 == .invalidCredential }, "\(refusals)")
        // The back-off is a wait of about a second on the server's real clock, not a lock: the
        // right password is refused as tooManyRequests during it and signs in after it.
        var waits: [AuthErrorCode.Code] = []
        while auth.currentUser == nil && waits.count < 50 {
            do {
                _ = try await auth.signIn(withEmail: "eve@example.com", password: "correct horse")
            } catch let error as AuthErrorCode {
                waits.append(error.code)
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        #expect(waits.allSatisfy { $0 == .tooManyRequests }, "\(waits)")
        #expect(auth.currentUser?.email == "eve@example.com")
    }

    @Test("ID tokens are reused while fresh, refreshed when forced or near expiry, and verified by Hearth")
    func idTokens() async throws {
        let harness = try ClientHarness()
        let auth = Auth(app: harness.makeApp())
        let user = try await auth.createUser(withEmail: "tokens@example.com", password: "correct horse").user
        let first = try await user.getIDToken()
        #expect(try await user.getIDToken() == first)
        #expect(harness.transport.count(pathSuffix: "/v1/token") == 0)
        let forced = try await user.getIDTokenForcingRefresh(true)
        #expect(harness.transport.count(pathSuffix: "/v1/token") == 1)
        harness.time.advance(by: 56 * 60)
        let renewed = try await user.getIDToken()
        #expect(harness.transport.count(pathSuffix: "/v1/token") == 2)
        #expect(!forced.isEmpty && !renewed.isEmpty)
        try await user.reload()
        #expect(user.email == "tokens@example.com")
    }

    @Test("A new Auth on the same storage reads the signed-in user, who can still call Hearth")
    func persistedUserSurvivesARestart() async throws {
        let harness = try ClientHarness()
        let before = Auth(app: harness.makeApp(name: "relaunched"))
        let uid = try await before.createUser(withEmail: "kept@example.com", password: "correct horse").user.uid

        let after = Auth(app: harness.makeApp(name: "relaunched"))
        let user = try #require(after.currentUser)
        #expect(user.uid == uid)
        #expect(user.email == "kept@example.com")
        try await user.reload()
        #expect(try await !user.getIDTokenForcingRefresh(true).isEmpty)

        try after.signOut()
        #expect(Auth(app: harness.makeApp(name: "relaunched")).currentUser == nil)
    }

    @Test("Email verification: the outbox code is checked as verifyEmail, applied, and reload shows it")
    func emailVerification() async throws {
        let harness = try ClientHarness()
        let auth = Auth(app: harness.makeApp())
        let user = try await auth.createUser(withEmail: "verify@example.com", password: "correct horse").user
        try await user.sendEmailVerification(with: Self.seedSettings())
        let (code, link) = try harness.latestCode("VERIFY_EMAIL", for: "verify@example.com")

        let parsed = try #require(ActionCodeURL(link: link))
        #expect(parsed.code == code)
        #expect(parsed.operation == .verifyEmail)
        let info = try await auth.checkActionCode(code)
        #expect(info.operation == .verifyEmail)
        #expect(info.email == "verify@example.com")

        try await auth.applyActionCode(code)
        try await user.reload()
        #expect(user.isEmailVerified)
        await #expect { try await auth.applyActionCode(code) } throws: {
            ($0 as? AuthErrorCode)?.code == .invalidActionCode
        }
    }

    @Test("Password reset: checked as passwordReset, verified to its email, confirmed, and the new password works")
    func passwordReset() async throws {
        let harness = try ClientHarness()
        let auth = Auth(app: harness.makeApp())
        _ = try await auth.createUser(withEmail: "reset@example.com", password: "old password")
        try auth.signOut()
        try await auth.sendPasswordReset(withEmail: "reset@example.com", actionCodeSettings: Self.seedSettings())
        let (code, _) = try harness.latestCode("PASSWORD_RESET", for: "reset@example.com")

        #expect(try await auth.checkActionCode(code).operation == .passwordReset)
        #expect(try await auth.verifyPasswordResetCode(code) == "reset@example.com")
        try await auth.confirmPasswordReset(withCode: code, newPassword: "new password")
        _ = try await auth.signIn(withEmail: "reset@example.com", password: "new password")
        await #expect { try await auth.confirmPasswordReset(withCode: code, newPassword: "third one") } throws: {
            ($0 as? AuthErrorCode)?.code == .invalidActionCode
        }
    }

    @Test("Email-link sign-in: the outbox link is recognised, checked as emailLink, and signs in a new user")
    func emailLinkSignIn() async throws {
        let harness = try ClientHarness()
        let auth = Auth(app: harness.makeApp())
        try await auth.sendSignInLink(
            toEmail: "link@example.com",
            actionCodeSettings: Self.seedSettings(handleCodeInApp: true)
        )
        let (code, link) = try harness.latestCode("EMAIL_SIGNIN", for: "link@example.com")

        #expect(auth.isSignIn(withEmailLink: link))
        #expect(!auth.isSignIn(withEmailLink: "https://www.example.com/finish?mode=resetPassword&oobCode=x"))
        #expect(try await auth.checkActionCode(code).operation == .emailLink)
        let result = try await auth.signIn(withEmail: "link@example.com", link: link)
        #expect(result.additionalUserInfo?.isNewUser == true)
        #expect(result.user.email == "link@example.com")
        #expect(auth.currentUser?.uid == result.user.uid)

        await #expect {
            try await auth.sendSignInLink(toEmail: "link@example.com", actionCodeSettings: Self.seedSettings())
        } throws: {
            ($0 as? AuthErrorCode)?.code == .argumentError
        }
    }

    @Test("Email change: verifyAndChangeEmail then recoverEmail are each reported, with both addresses")
    func emailChangeAndRecovery() async throws {
        let harness = try ClientHarness()
        let auth = Auth(app: harness.makeApp())
        let user = try await auth.createUser(withEmail: "old@example.com", password: "correct horse").user
        try await user.sendEmailVerification(
            beforeUpdatingEmail: "new@example.com",
            actionCodeSettings: Self.seedSettings()
        )
        let (change, _) = try harness.latestCode("VERIFY_AND_CHANGE_EMAIL", for: "new@example.com")

        let info = try await auth.checkActionCode(change)
        #expect(info.operation == .verifyAndChangeEmail)
        #expect(info.email == "new@example.com")
        #expect(info.previousEmail == "old@example.com")
        try await auth.applyActionCode(change)
        _ = try await auth.signIn(withEmail: "new@example.com", password: "correct horse")

        let (recover, _) = try harness.latestCode("RECOVER_EMAIL", for: "old@example.com")
        let recovery = try await auth.checkActionCode(recover)
        #expect(recovery.operation == .recoverEmail)
        try await auth.applyActionCode(recover)
        try await auth.currentUser?.reload()
        _ = try await auth.signIn(withEmail: "old@example.com", password: "correct horse")
    }

    @Test("Settings the project refuses are typed errors: a foreign continue URL, an unknown link domain")
    func refusedSettings() async throws {
        let harness = try ClientHarness()
        let auth = Auth(app: harness.makeApp())
        _ = try await auth.createUser(withEmail: "settings@example.com", password: "correct horse")
        let foreign = Self.seedSettings()
        foreign.url = URL(string: "https://evil.example.net/")
        await #expect {
            try await auth.sendPasswordReset(withEmail: "settings@example.com", actionCodeSettings: foreign)
        } throws: {
            ($0 as? AuthErrorCode)?.code == .unauthorizedDomain
        }
        let badDomain = Self.seedSettings(handleCodeInApp: true)
        badDomain.linkDomain = "not-ours.example.org"
        await #expect {
            try await auth.sendSignInLink(toEmail: "settings@example.com", actionCodeSettings: badDomain)
        } throws: {
            ($0 as? AuthErrorCode)?.code == .invalidHostingLinkDomain
        }
        await #expect { _ = try await auth.checkActionCode("not-a-code") } throws: {
            ($0 as? AuthErrorCode)?.code == .invalidActionCode
        }
    }

    @Test("languageCode is sent as X-Firebase-Locale and chooses the email's language")
    func languageCode() async throws {
        let harness = try ClientHarness()
        let auth = Auth(app: harness.makeApp())
        _ = try await auth.createUser(withEmail: "lingua@example.com", password: "correct horse")
        auth.languageCode = "it"
        try await auth.sendPasswordReset(withEmail: "lingua@example.com")
        #expect(harness.transport.requests.last?.headers["X-Firebase-Locale"] == "it")
        let messages =
            try harness.admin("GET", "/hearth/v1/projects/\(Seed.projectID)/mail/messages")
            .json["messages"] as? [[String: Any]] ?? []
        let reset = messages.last {
            $0["kind"] as? String != "verifyEmail" && $0["to"] as? String == "lingua@example.com"
        }
        #expect(reset?["language"] as? String == "it")
    }

    @Test("User.delete deletes the account at Hearth and signs out")
    func deleteUser() async throws {
        let harness = try ClientHarness()
        let auth = Auth(app: harness.makeApp())
        let user = try await auth.createUser(withEmail: "gone@example.com", password: "correct horse").user
        try await user.delete()
        #expect(auth.currentUser == nil)
        await #expect { _ = try await auth.signIn(withEmail: "gone@example.com", password: "correct horse") } throws: {
            let code = ($0 as? AuthErrorCode)?.code
            return code == .userNotFound || code == .invalidCredential
        }
    }
}
