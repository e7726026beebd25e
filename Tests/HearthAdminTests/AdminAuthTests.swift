import Foundation
import HearthAdmin
import HearthTestSupport
import Testing

@testable import Hearth

/// The admin SDK's `auth` against the real binary: each kind of link it generates, used by the
/// client SDK; user management; revocation; ID-token verification and its refusals.
@Suite("HearthAdmin auth against the real server")
struct AdminAuthTests {
    /// Settings as the seed documents write them: the app opens the link, through the link domain.
    static func appSettings(continueURL: String = "https://www.example.com/finish") -> ActionCodeSettings {
        let settings = ActionCodeSettings()
        settings.url = URL(string: continueURL)
        settings.handleCodeInApp = true
        settings.iOSBundleID = "com.example.ios"
        settings.setAndroidPackageName("com.example.android", installIfNotAvailable: true, minimumVersion: "12")
        settings.linkDomain = "custom-domain.com"
        return settings
    }

    @Test("each kind of link is generated for the app's link domain, and the client SDK uses it")
    func linksOfEachKind() async throws {
        let harness = try AdminHarness()
        let admin = harness.admin()
        let auth = Auth.auth(app: harness.client())
        let email = AdminHarness.email("links")
        let created = try await admin.auth.createUser(.init(email: email, password: "first password"))
        #expect(created.email == email && !created.emailVerified)

        // Verify email: wrapped for the app, then checked and applied by the client.
        let verification = try await admin.auth.generateEmailVerificationLink(
            for: email,
            actionCodeSettings: Self.appSettings()
        )
        let verificationURL = try #require(URLComponents(string: verification))
        #expect(verificationURL.host == "custom-domain.com" && verificationURL.path == "/__/auth/links")
        let verify = try #require(ActionCodeURL(link: verification))
        #expect(verify.operation == .verifyEmail)
        #expect(verify.continueURL?.absoluteString == "https://www.example.com/finish")
        #expect(try await auth.checkActionCode(verify.code).operation == .verifyEmail)
        try await auth.applyActionCode(verify.code)
        #expect(try await admin.auth.getUser(uid: created.uid).emailVerified)

        // Password reset: the client reads the address and sets the new password.
        let reset = try #require(
            ActionCodeURL(link: try await admin.auth.generatePasswordResetLink(for: email))
        )
        #expect(reset.operation == .passwordReset)
        #expect(try await auth.verifyPasswordResetCode(reset.code) == email)
        try await auth.confirmPasswordReset(withCode: reset.code, newPassword: "second password")
        #expect(try await auth.signIn(withEmail: email, password: "second password").user.uid == created.uid)
        try auth.signOut()

        // Email-link sign-in.
        let signInLink = try await admin.auth.generateSignInWithEmailLink(
            for: email,
            actionCodeSettings: Self.appSettings()
        )
        #expect(auth.isSignIn(withEmailLink: signInLink))
        let signedIn = try await auth.signIn(withEmail: email, link: signInLink)
        #expect(signedIn.user.uid == created.uid)

        // Verify and change email: applying it moves the account to the new address.
        let newEmail = AdminHarness.email("moved")
        let change = try #require(
            ActionCodeURL(
                link: try await admin.auth.generateVerifyAndChangeEmailLink(for: email, newEmail: newEmail)
            )
        )
        #expect(change.operation == .verifyAndChangeEmail)
        let info = try await auth.checkActionCode(change.code)
        #expect(info.operation == .verifyAndChangeEmail && info.email == newEmail && info.previousEmail == email)
        try await auth.applyActionCode(change.code)
        let moved = try await admin.auth.getUser(uid: created.uid)
        #expect(moved.email == newEmail && moved.emailVerified)

        // A continue URL outside the authorized domains is refused in the server's words.
        let settings = Self.appSettings(continueURL: "https://evil.example.net/")
        let refusal = await #expect(throws: AdminError.self) {
            try await admin.auth.generateEmailVerificationLink(for: newEmail, actionCodeSettings: settings)
        }
        #expect(refusal?.wireCode == .unauthorizedDomain)
    }

    @Test("users are created, read by ID and by email, updated, listed in pages and deleted")
    func userManagement() async throws {
        let harness = try AdminHarness()
        let admin = harness.admin()
        var made: [AdminUser] = []
        for index in 0..<5 {
            made.append(
                try await admin.auth.createUser(
                    .init(
                        email: AdminHarness.email("user\(index)"),
                        password: "password \(index)",
                        displayName: "U\(index)"
                    )
                )
            )
        }
        let chosen = try await admin.auth.createUser(.init(uid: "chosen-uid-1", email: AdminHarness.email("chosen")))
        #expect(chosen.uid == "chosen-uid-1")
        #expect(try await admin.auth.getUser(email: made[2].email!) == made[2])
        #expect(made[0].creationTime != nil && made[0].displayName == "U0")

        let duplicate = await #expect(throws: AdminError.self) {
            try await admin.auth.createUser(.init(email: made[0].email, password: "another one"))
        }
        #expect(duplicate?.wireCode == .emailExists)

        let updated = try await admin.auth.updateUser(
            uid: made[1].uid,
            .init(displayName: "Renamed", emailVerified: true, disabled: true)
        )
        #expect(updated.displayName == "Renamed" && updated.emailVerified && updated.disabled)

        // Pages of two until the last: every user once, in ID order.
        var listed: [AdminUser] = []
        var pageToken: String?
        var pages = 0
        repeat {
            let page = try await admin.auth.listUsers(maxResults: 2, pageToken: pageToken)
            #expect(page.users.count <= 2)
            listed += page.users
            pageToken = page.pageToken
            pages += 1
        } while pageToken != nil && pages < 100
        #expect(pages >= 3)
        #expect(Set(listed.map(\.uid)).isSuperset(of: made.map(\.uid) + [chosen.uid]))
        #expect(listed.map(\.uid) == listed.map(\.uid).sorted())
        #expect(Set(listed.map(\.uid)).count == listed.count)

        let badPage = await #expect(throws: AdminError.self) { try await admin.auth.listUsers(maxResults: 0) }
        #expect(badPage?.status == 400)

        try await admin.auth.deleteUser(uid: made[3].uid)
        let gone = await #expect(throws: AdminError.self) { try await admin.auth.getUser(uid: made[3].uid) }
        #expect(gone?.wireCode == .userNotFound)
        let unknownEmail = await #expect(throws: AdminError.self) {
            try await admin.auth.getUser(email: "nobody-\(UUID().uuidString)@example.com")
        }
        #expect(unknownEmail?.wireCode == .userNotFound)
    }

    @Test("a wrong admin credential is refused with the server's 401 or 403")
    func wrongCredential() async throws {
        let harness = try AdminHarness()
        let admin = AdminApp(
            projectID: Seed.projectID,
            credential: .bearer("not-a-credential"),
            baseURL: harness.baseURL
        )
        let refusal = await #expect(throws: AdminError.self) { try await admin.auth.listUsers() }
        #expect([401, 403].contains(refusal?.status ?? 0))
    }

    @Test(
        "verifyIDToken accepts the server's ID tokens and refuses tampered, expired, foreign-project and installation tokens, each with its own error"
    )
    func idTokenVerification() async throws {
        let harness = try AdminHarness()
        let time = AdminTime()
        let admin = harness.admin(time: time)
        let client = harness.client()
        let email = AdminHarness.email("tokens")
        let user = try await Auth.auth(app: client).createUser(withEmail: email, password: "token password").user
        let idToken = try await user.getIDToken()

        let decoded = try await admin.auth.verifyIDToken(idToken)
        #expect(decoded.uid == user.uid && decoded.email == email && !decoded.emailVerified)
        #expect(decoded.audience == Seed.projectID && decoded.issuer == "https://securetoken.google.com/demo-project")
        #expect(decoded.signInProvider == "password")
        #expect(decoded.claims["user_id"]?.stringValue == user.uid)
        #expect(decoded.expiration.timeIntervalSince(decoded.issuedAt) == 3_600)
        #expect(try await admin.auth.verifyIDToken(idToken, checkRevoked: true).uid == user.uid)

        var refusals: [TokenVerificationError] = []
        func refusal(_ token: String, by app: AdminApp? = nil) async -> TokenVerificationError? {
            let error = await #expect(throws: TokenVerificationError.self) {
                try await (app ?? admin).auth.verifyIDToken(token)
            }
            if let error { refusals.append(error) }
            return error
        }

        #expect(await refusal(try Tokens.withClaim(idToken, "sub", "someone-else")) == .invalidSignature)
        #expect(await refusal("not.a.token") == .malformed)

        let otherUser = try await Auth.auth(app: harness.client(otherProject: true))
            .createUser(withEmail: AdminHarness.email("foreign"), password: "token password").user
        let foreign = try await otherUser.getIDToken()
        #expect(
            await refusal(foreign) == .wrongProject(expected: Seed.projectID, found: Seed.otherProjectID)
        )

        let installationToken = try await Installations.installations(app: client).authToken().authToken
        #expect(
            await refusal(installationToken) == .wrongPurpose(expected: .idToken, found: .installationToken)
        )

        let later = AdminTime()
        later.advance(by: 3_601)
        #expect(await refusal(idToken, by: harness.admin(time: later)) == .expired)
        #expect(Set(refusals).count == refusals.count, "each refusal has its own error: \(refusals)")
    }

    @Test("revokeRefreshTokens ends the user's sessions, and verifyIDToken with checkRevoked refuses its tokens")
    func revocation() async throws {
        let harness = try AdminHarness()
        let time = AdminTime()
        let admin = harness.admin(time: time)
        let auth = Auth.auth(app: harness.client())
        let email = AdminHarness.email("revoked")
        let user = try await auth.createUser(withEmail: email, password: "revoke password").user
        let idToken = try await user.getIDToken()

        // Revoked in a later second than the token was issued in (ID tokens are compared by
        // the second, as Firebase's are): the server's clock and the admin's move on two seconds.
        try harness.advanceServerClock(by: 2)
        time.advance(by: 2)
        try await admin.auth.revokeRefreshTokens(uid: user.uid)
        let record = try await admin.auth.getUser(uid: user.uid)
        let cutOff = try #require(record.tokensValidAfterTime)
        #expect(cutOff > (try await admin.auth.verifyIDToken(idToken)).issuedAt)

        // Still a genuine, unexpired token offline; refused once revocation is checked.
        #expect(try await admin.auth.verifyIDToken(idToken).uid == user.uid)
        await #expect(throws: TokenVerificationError.revoked) {
            try await admin.auth.verifyIDToken(idToken, checkRevoked: true)
        }
        // The session's refresh token no longer works.
        await #expect(throws: AuthErrorCode.self) { try await user.getIDTokenForcingRefresh(true) }

        _ = try await admin.auth.updateUser(uid: user.uid, .init(disabled: true))
        await #expect(throws: TokenVerificationError.userDisabled) {
            try await admin.auth.verifyIDToken(idToken, checkRevoked: true)
        }
        try await admin.auth.deleteUser(uid: user.uid)
        await #expect(throws: TokenVerificationError.userNotFound) {
            try await admin.auth.verifyIDToken(idToken, checkRevoked: true)
        }
    }
}
