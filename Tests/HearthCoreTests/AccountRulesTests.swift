import HearthBase
import HearthCore
import HearthStore
import Testing

/// The pure rules of the accounts area: emails, passwords, custom claims, and what a change
/// to an account does to its sessions.
@Suite struct AccountRulesTests {
    @Test func emailsAreTrimmedAndLowerCased() {
        #expect(EmailAddress.normalized("  Alice.Smith+tag@Example.COM ") == "alice.smith+tag@example.com")
        #expect(EmailAddress.normalized("a@b") == "a@b")
        #expect(EmailAddress.normalized("ÜBER@Bücher.example") == "über@bücher.example")
        #expect(EmailAddress.normalized("\r\nx@y.z\t") == "x@y.z")
        let longest = String(repeating: "l", count: 64) + "@" + String(repeating: "d", count: 63) + ".example"
        #expect(EmailAddress.normalized(longest) == longest)
    }

    @Test func malformedEmailsAreRefused() {
        let bad = [
            "", "   ", "plain", "@example.com", "alice@", "a@@b.com", "a@b@c.com", "a b@example.com", "a@exa mple.com",
            "a@example..com", "a@.example.com", "a@example.com.", "a\u{0}@example.com", "a@exa\nmple.com",
            "<a>@example.com", String(repeating: "x", count: 65) + "@example.com",
            "a@" + String(repeating: "x", count: 64) + ".com", "a@b.", "a\u{A0}b@example.com", "a@b\u{3000}.com",
            "\"a\"@example.com", "a@[127.0.0.1]", "a\u{7F}@example.com",
            "a@" + String(repeating: "x.", count: 126) + "xx",
        ]
        for text in bad { #expect(EmailAddress.normalized(text) == nil, "\(text.debugDescription) was accepted") }
    }

    @Test func passwordsNeedSixCharactersAndAreBounded() throws {
        #expect(throws: AuthError.weakPassword) { try PasswordPolicy.validate("12345") }
        #expect(throws: AuthError.weakPassword) { try PasswordPolicy.validate("") }
        try PasswordPolicy.validate("123456")
        // Characters, not bytes: six emoji are six characters.
        try PasswordPolicy.validate("🔑🔑🔑🔑🔑🔑")
        #expect(throws: AuthError.self) { try PasswordPolicy.validate(String(repeating: "x", count: 4_097)) }
        #expect(AuthError.weakPassword.message == "WEAK_PASSWORD : Password should be at least 6 characters")
    }

    @Test func customClaimsMustBeASmallObjectWithoutReservedNames() throws {
        #expect(try CustomClaims.parse(#"{"role":"admin","level":3}"#)?["role"] == .string("admin"))
        #expect(try CustomClaims.parse("{}") == nil)
        #expect(try CustomClaims.parse("") == nil)
        #expect(throws: AuthError(.invalidClaims, "Custom claims must be a JSON object")) {
            try CustomClaims.parse("[1,2]")
        }
        #expect(throws: AuthError.self) { try CustomClaims.parse(#"{"role":"#) }
        for name in ["sub", "iss", "firebase", "email", "auth_time"] {
            #expect(throws: AuthError(.forbiddenClaim, name)) {
                try CustomClaims.parse(#"{"\#(name)":1}"#)
            }
        }
        let large = #"{"blob":""# + String(repeating: "x", count: 1_000) + #""}"#
        #expect(throws: AuthError(.claimsTooLarge, "Custom claims must be at most 1000 characters")) {
            try CustomClaims.parse(large)
        }
    }

    @Test func storedCustomClaimsAreCompact() throws {
        #expect(try AccountService.customAttributes(#"{ "role" : "admin" }"#) == #"{"role":"admin"}"#)
        #expect(try AccountService.customAttributes("{}") == nil)
    }

    private let account = AccountRecord(
        projectID: "demo-project",
        localID: "u1",
        email: "old@example.com",
        emailVerified: true,
        passwordHash: "hash-1",
        passwordUpdatedAt: 1_000,
        createdAt: 1_000,
        validSinceSeconds: 1
    )

    @Test func aNewPasswordRevokesSessionsAndMovesValidSinceToNow() {
        var changes = AccountChanges()
        changes.passwordHash = .some("hash-2")
        let outcome = account.applying(changes, nowMilliseconds: 50_123)
        #expect(outcome.revokesSessions)
        #expect(outcome.account.passwordHash == "hash-2")
        #expect(outcome.account.passwordUpdatedAt == 50_123)
        #expect(outcome.account.validSinceSeconds == 50)
    }

    @Test func disablingAndALaterValidSinceRevokeButProfileChangesDoNot() {
        var disable = AccountChanges()
        disable.disabled = true
        #expect(account.applying(disable, nowMilliseconds: 5_000).revokesSessions)

        var later = AccountChanges()
        later.validSinceSeconds = 99
        let moved = account.applying(later, nowMilliseconds: 150_000)
        #expect(moved.revokesSessions)
        #expect(moved.account.validSinceSeconds == 99)

        var earlier = AccountChanges()
        earlier.validSinceSeconds = 0
        #expect(!account.applying(earlier, nowMilliseconds: 5_000).revokesSessions)

        var profile = AccountChanges()
        profile.displayName = .some("Ada")
        profile.photoURL = .some("https://example.com/a.png")
        profile.emailVerified = false
        var enable = profile
        enable.disabled = false
        let outcome = account.applying(enable, nowMilliseconds: 5_000)
        #expect(!outcome.revokesSessions)
        #expect(outcome.account.displayName == "Ada")
        #expect(outcome.account.validSinceSeconds == 1)
    }

    @Test func aNewEmailIsUnverifiedUnlessTheChangeSaysOtherwise() {
        var changes = AccountChanges()
        changes.email = .some("new@example.com")
        let outcome = account.applying(changes, nowMilliseconds: 5_000)
        #expect(outcome.account.email == "new@example.com")
        #expect(!outcome.account.emailVerified)
        #expect(outcome.previousEmail == .some("old@example.com"))
        #expect(!outcome.revokesSessions)

        changes.emailVerified = true
        #expect(account.applying(changes, nowMilliseconds: 5_000).account.emailVerified)

        var same = AccountChanges()
        same.email = .some("old@example.com")
        let unchanged = account.applying(same, nowMilliseconds: 5_000)
        #expect(unchanged.account.emailVerified)
        #expect(unchanged.previousEmail == nil)
    }

    @Test func removingValuesUsesAnExplicitNil() {
        var changes = AccountChanges()
        changes.passwordHash = .some(nil)
        changes.displayName = .some(nil)
        let outcome = account.applying(changes, nowMilliseconds: 5_000)
        #expect(outcome.account.passwordHash == nil)
        #expect(outcome.account.passwordUpdatedAt == nil)
        #expect(outcome.account.providerIDs.isEmpty)
        #expect(account.providerIDs == ["password"])
        #expect(AccountChanges().isEmpty)
        #expect(!changes.isEmpty)
    }

    @Test func errorsRenderFirebaseMessages() {
        #expect(AuthError(.emailExists).message == "EMAIL_EXISTS")
        #expect(AuthError(.operationNotAllowed, "No.").message == "OPERATION_NOT_ALLOWED : No.")
        #expect(
            AuthError.signInBackoff(retryAfterSeconds: 5, acrossAccounts: true).code.rawValue
                == "TOO_MANY_ATTEMPTS_TRY_LATER"
        )
        #expect(AuthError.tokenExpired.httpStatus == 400)
    }
}
