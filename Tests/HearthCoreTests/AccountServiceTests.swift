import HearthBase
import HearthCore
import HearthStore
import Synchronization
import Testing

/// Counts the password work a call spends. Its "hash" is deliberately trivial: these tests
/// are about how many verifications happen, not about Argon2id (which `Argon2idTests` covers).
final class CountingHasher: PasswordHasher {
    let hashes = Atomic<Int>(0)
    let verifications = Atomic<Int>(0)
    let dummyVerifications = Atomic<Int>(0)

    func hash(_ password: String) -> String {
        hashes.add(1, ordering: .relaxed)
        return "test$" + String(password.reversed())
    }

    func verify(_ password: String, against storedHash: String) -> Bool {
        verifications.add(1, ordering: .relaxed)
        return storedHash == "test$" + String(password.reversed())
    }

    func verifyAgainstDummy(_ password: String) {
        dummyVerifications.add(1, ordering: .relaxed)
    }

    /// Real and dummy verifications together: the work a sign-in spent.
    var totalVerifications: Int {
        verifications.load(ordering: .relaxed) + dummyVerifications.load(ordering: .relaxed)
    }
}

/// `AccountService` over a real SQLite store and key ring, with a manual clock.
struct AccountFixture {
    let temporary: TemporaryStore
    let clock = ManualClock(milliseconds: 1_800_000_000_000)
    let hasher = CountingHasher()
    let service: AccountService
    let project: Project

    init(limits: SignInLimits = SignInLimits(), enumerationProtection: Bool = true) throws {
        temporary = try TemporaryStore()
        let directory = try ProjectDirectory(store: temporary.store, clock: clock)
        var project = DevelopmentSeed.project
        project.settings.emailEnumerationProtection = enumerationProtection
        try directory.save(project)
        self.project = project
        let keys = KeyRing(store: temporary.store, clock: clock, masterKey: .generate())
        service = AccountService(store: temporary.store, clock: clock, keys: keys, hasher: hasher, limits: limits)
    }
}

@Suite struct AccountServiceTests {
    @Test func signInSpendsExactlyOneVerificationWhetherOrNotTheEmailIsKnown() throws {
        let fixture = try AccountFixture()
        let project = fixture.project
        _ = try fixture.service.signUp(
            project: project,
            email: "known@example.com",
            password: "right-password",
            displayName: nil,
            clientAddress: "10.0.0.1"
        )
        var draft = AccountDraft()
        draft.email = "nopassword@example.com"
        _ = try fixture.service.create(project: project, draft: draft)

        let attempts: [(String, String)] = [
            ("known@example.com", "right-password"), ("known@example.com", "wrong-password"),
            ("unknown@example.com", "any-password"), ("nopassword@example.com", "any-password"),
        ]
        for (email, password) in attempts {
            let before = fixture.hasher.totalVerifications
            _ = try? fixture.service.signIn(
                project: project,
                email: email,
                password: password,
                clientAddress: "10.0.0.1"
            )
            #expect(fixture.hasher.totalVerifications - before == 1, "\(email) spent another amount of work")
        }
        #expect(fixture.hasher.dummyVerifications.load(ordering: .relaxed) == 2)
    }

    @Test func unknownEmailsAndWrongPasswordsLookTheSameUnderEnumerationProtection() throws {
        let protected = try AccountFixture()
        _ = try protected.service.signUp(
            project: protected.project,
            email: "a@example.com",
            password: "password-1",
            displayName: nil,
            clientAddress: "10.0.0.1"
        )
        #expect(throws: AuthError(.invalidLoginCredentials)) {
            try protected.service.signIn(
                project: protected.project,
                email: "a@example.com",
                password: "nope-nope",
                clientAddress: "x"
            )
        }
        #expect(throws: AuthError(.invalidLoginCredentials)) {
            try protected.service.signIn(
                project: protected.project,
                email: "b@example.com",
                password: "nope-nope",
                clientAddress: "x"
            )
        }

        let open = try AccountFixture(enumerationProtection: false)
        let project = open.project
        _ = try open.service.signUp(
            project: project,
            email: "a@example.com",
            password: "password-1",
            displayName: nil,
            clientAddress: "x"
        )
        #expect(throws: AuthError(.invalidPassword)) {
            try open.service.signIn(project: project, email: "a@example.com", password: "nope-nope", clientAddress: "x")
        }
        #expect(throws: AuthError(.emailNotFound)) {
            try open.service.signIn(project: project, email: "b@example.com", password: "nope-nope", clientAddress: "x")
        }
    }

    /// Limits small enough to reach in a test: 3 free failures per account and address,
    /// then 10 s doubling up to 80 s.
    static let smallLimits = SignInLimits(
        failuresPerAccountAndClient: FailureBackoff(
            name: "pair",
            freeFailures: 3,
            schedule: RetrySchedule(baseMilliseconds: 10_000, maximumMilliseconds: 80_000),
            memorySeconds: 3_600
        ),
        failuresPerClient: FailureBackoff(
            name: "ip",
            freeFailures: 6,
            schedule: RetrySchedule(baseMilliseconds: 30_000, maximumMilliseconds: 60_000),
            memorySeconds: 3_600
        ),
        failuresPerAccount: RateLimit(name: "acct", limit: 8, windowSeconds: 86_400)
    )

    private func fail(
        _ service: AccountService,
        _ project: Project,
        _ email: String,
        from address: String
    ) throws -> AuthError? {
        do {
            _ = try service.signIn(project: project, email: email, password: "wrong-one", clientAddress: address)
            return nil
        } catch let error as AuthError {
            return error
        }
    }

    @Test("Failures back off per account and address before any hashing; the owner from elsewhere signs in")
    func failuresBackOffPerAccountAndAddress() throws {
        let fixture = try AccountFixture(limits: Self.smallLimits)
        let service = fixture.service
        let project = fixture.project
        _ = try service.signUp(
            project: project,
            email: "a@example.com",
            password: "password-1",
            displayName: nil,
            clientAddress: "1.1.1.1"
        )
        for _ in 0..<4 {
            #expect(try fail(service, project, "A@example.com", from: "6.6.6.6") == AuthError(.invalidLoginCredentials))
        }
        let spent = fixture.hasher.totalVerifications
        // The attacker's address waits, even with the right password, and no hash is computed.
        let refusal = AuthError.signInBackoff(retryAfterSeconds: 10, acrossAccounts: false)
        #expect(throws: refusal) {
            try service.signIn(
                project: project,
                email: "a@example.com",
                password: "password-1",
                clientAddress: "6.6.6.6"
            )
        }
        #expect(refusal.httpStatus == 400 && refusal.code == .tooManyAttempts)
        #expect(refusal.message.contains("on this account from this address") && refusal.message.contains("10 s"))
        #expect(!refusal.message.contains("disabled"))
        #expect(fixture.hasher.totalVerifications == spent)
        // The owner's right password from another address signs in meanwhile.
        #expect(
            try service.signIn(
                project: project,
                email: "a@example.com",
                password: "password-1",
                clientAddress: "2.2.2.2"
            )
            .account.email == "a@example.com"
        )
        // Once the wait has passed the attacker gets one more try, and then waits twice as long.
        fixture.clock.advance(milliseconds: 10_000)
        #expect(try fail(service, project, "a@example.com", from: "6.6.6.6") == AuthError(.invalidLoginCredentials))
        #expect(
            try fail(service, project, "a@example.com", from: "6.6.6.6")
                == AuthError.signInBackoff(retryAfterSeconds: 20, acrossAccounts: false)
        )
        fixture.clock.advance(milliseconds: 20_000)
        #expect(
            try service.signIn(
                project: project,
                email: "a@example.com",
                password: "password-1",
                clientAddress: "6.6.6.6"
            )
            .account.email == "a@example.com"
        )
    }

    @Test("A success clears the failures of its account and address")
    func aSuccessClearsTheAccountAndAddressFailures() throws {
        let fixture = try AccountFixture(limits: Self.smallLimits)
        let service = fixture.service
        let project = fixture.project
        _ = try service.signUp(
            project: project,
            email: "a@example.com",
            password: "password-1",
            displayName: nil,
            clientAddress: "x"
        )
        // Without the clearing the second round's second failure would already wait.
        for round in 0..<2 {
            for _ in 0..<3 {
                #expect(try fail(service, project, "a@example.com", from: "x") == AuthError(.invalidLoginCredentials))
            }
            #expect(throws: Never.self, "round \(round)") {
                try service.signIn(project: project, email: "a@example.com", password: "password-1", clientAddress: "x")
            }
        }
    }

    @Test("Failures from one address back off across emails, and say it is the address")
    func failuresFromOneClientAddressBackOffAcrossEmails() throws {
        let fixture = try AccountFixture(limits: Self.smallLimits)
        let service = fixture.service
        let project = fixture.project
        for index in 0..<7 {
            #expect(
                try fail(service, project, "user\(index)@example.com", from: "6.6.6.6")
                    == AuthError(.invalidLoginCredentials)
            )
        }
        let refusal = try #require(try fail(service, project, "fresh@example.com", from: "6.6.6.6"))
        #expect(refusal == AuthError.signInBackoff(retryAfterSeconds: 30, acrossAccounts: true))
        #expect(refusal.message.contains("from this address") && !refusal.message.contains("on this account"))
        #expect(try fail(service, project, "fresh@example.com", from: "7.7.7.7") == AuthError(.invalidLoginCredentials))
    }

    @Test("Under a distributed attack an address that failed backs off from its first failure; a fresh one does not")
    func aDistributedAttackTakesAwayTheFreeFailuresButNeverLocksTheOwnerOut() throws {
        let fixture = try AccountFixture(limits: Self.smallLimits)
        let service = fixture.service
        let project = fixture.project
        _ = try service.signUp(
            project: project,
            email: "a@example.com",
            password: "password-1",
            displayName: nil,
            clientAddress: "1.1.1.1"
        )
        // Before the account-wide count is used up, one failure leaves an address its free ones.
        #expect(try fail(service, project, "a@example.com", from: "10.0.0.100") == AuthError(.invalidLoginCredentials))
        #expect(try fail(service, project, "a@example.com", from: "10.0.0.100") == AuthError(.invalidLoginCredentials))
        for bot in 0..<6 {
            #expect(
                try fail(service, project, "a@example.com", from: "10.0.1.\(bot)")
                    == AuthError(.invalidLoginCredentials)
            )
        }
        // 8 failures across addresses: every address that failed now backs off from its first.
        #expect(
            try fail(service, project, "a@example.com", from: "10.0.1.0")
                == AuthError.signInBackoff(retryAfterSeconds: 10, acrossAccounts: false)
        )
        #expect(
            try fail(service, project, "a@example.com", from: "10.0.0.100")
                == AuthError.signInBackoff(retryAfterSeconds: 20, acrossAccounts: false)
        )
        // A new address is tried at once, and the owner's right password signs in.
        #expect(try fail(service, project, "a@example.com", from: "10.0.2.1") == AuthError(.invalidLoginCredentials))
        #expect(
            try service.signIn(
                project: project,
                email: "a@example.com",
                password: "password-1",
                clientAddress: "1.1.1.1"
            )
            .account.email == "a@example.com"
        )
    }

    @Test func signUpsFromOneClientAddressAreLimited() throws {
        let limits = SignInLimits(signUpsPerClient: RateLimit(name: "signup", limit: 2, windowSeconds: 3_600))
        let fixture = try AccountFixture(limits: limits)
        for index in 0..<2 {
            _ = try fixture.service.signUp(
                project: fixture.project,
                email: "u\(index)@example.com",
                password: "password-1",
                displayName: nil,
                clientAddress: "5.5.5.5"
            )
        }
        #expect(throws: AuthError.signUpQuota(retryAfterSeconds: 3_600 - fixture.clock.nowSeconds() % 3_600)) {
            try fixture.service.signUp(
                project: fixture.project,
                email: "u9@example.com",
                password: "password-1",
                displayName: nil,
                clientAddress: "5.5.5.5"
            )
        }
        #expect(try fixture.service.account(project: fixture.project, email: "u9@example.com") == nil)
    }

    @Test func idTokensCarryFirebaseClaimsAndAreRefusedOnceRevoked() throws {
        let fixture = try AccountFixture()
        let service = fixture.service
        let project = fixture.project
        let signedUp = try service.signUp(
            project: project,
            email: "a@example.com",
            password: "password-1",
            displayName: "Ada",
            clientAddress: "x"
        )
        let verified = try service.idTokens.verify(signedUp.tokens.idToken, project: project)
        #expect(verified.localID == signedUp.account.localID)
        #expect(verified.issuedAt == fixture.clock.nowSeconds())
        let payload = try JSONValue.parse(Array(Self.payload(of: signedUp.tokens.idToken)))
        #expect(payload["iss"] == "https://securetoken.google.com/demo-project")
        #expect(payload["aud"] == "demo-project")
        #expect(payload["sub"] == payload["user_id"])
        #expect(payload["name"] == "Ada")
        #expect(payload["email"] == "a@example.com")
        #expect(payload["email_verified"] == false)
        #expect(payload["exp"]?.int64Value == fixture.clock.nowSeconds() + 3_600)
        #expect(payload["firebase"] == ["identities": ["email": ["a@example.com"]], "sign_in_provider": "password"])

        fixture.clock.advance(milliseconds: 2_000)
        try service.setPassword(project: project, localID: signedUp.account.localID, password: "password-2")
        #expect(throws: AuthError.tokenExpired) {
            try service.authenticate(idToken: signedUp.tokens.idToken, project: project)
        }
        fixture.clock.advance(milliseconds: 3_600_000)
        #expect(throws: AuthError.tokenExpired) {
            try service.idTokens.verify(signedUp.tokens.idToken, project: project)
        }
        var other = project
        other.id = "other-project"
        #expect(throws: AuthError.invalidIDToken) { try service.idTokens.verify("not.a.token", project: other) }
    }

    @Test func customClaimsAreSplicedIntoTokens() throws {
        let fixture = try AccountFixture()
        let service = fixture.service
        let account = try service.create(project: fixture.project, draft: AccountDraft())
        var changes = AccountChanges()
        changes.customAttributes = .some(try AccountService.customAttributes(#"{"role":"admin","tier":2}"#))
        try service.update(project: fixture.project, localID: account.localID, changes: changes)
        let tokens = try service.startSession(
            for: try #require(try service.account(project: fixture.project, localID: account.localID)),
            project: fixture.project
        )
        let payload = try JSONValue.parse(Array(Self.payload(of: tokens.idToken)))
        #expect(payload["role"] == "admin")
        #expect(payload["tier"] == 2)
        #expect(payload["sub"] == .string(account.localID))
        #expect(payload["email"] == nil)
    }

    @Test func refreshTokensAreStoredHashedAndEndWithPasswordChangesAndDisabling() throws {
        let fixture = try AccountFixture()
        let service = fixture.service
        let project = fixture.project
        let signedUp = try service.signUp(
            project: project,
            email: "a@example.com",
            password: "password-1",
            displayName: nil,
            clientAddress: "x"
        )
        let localID = signedUp.account.localID
        let stored = try fixture.temporary.store.read { try $0.refreshTokens(projectID: project.id, localID: localID) }
        #expect(stored.count == 1)
        #expect(stored[0].tokenHash == RefreshToken.hash(signedUp.tokens.refreshToken))
        #expect(stored[0].tokenHash != Array(signedUp.tokens.refreshToken.utf8))

        let (_, refreshed) = try service.refresh(project: project, refreshToken: signedUp.tokens.refreshToken)
        #expect(refreshed.refreshToken == signedUp.tokens.refreshToken)
        #expect(try service.idTokens.verify(refreshed.idToken, project: project).localID == localID)

        // A password change through `update` keeps the session it starts and ends the others.
        let (_, fresh) = try service.update(
            project: project,
            localID: localID,
            changes: try service.passwordChange("password-2"),
            startSession: true
        )
        let freshTokens = try #require(fresh)
        #expect(throws: AuthError.tokenExpired) {
            try service.refresh(project: project, refreshToken: signedUp.tokens.refreshToken)
        }
        #expect(throws: Never.self) { try service.refresh(project: project, refreshToken: freshTokens.refreshToken) }

        var disable = AccountChanges()
        disable.disabled = true
        try service.update(project: project, localID: localID, changes: disable)
        #expect(throws: AuthError.userDisabled) {
            try service.refresh(project: project, refreshToken: freshTokens.refreshToken)
        }
        var enable = AccountChanges()
        enable.disabled = false
        try service.update(project: project, localID: localID, changes: enable)
        // Re-enabling does not bring revoked sessions back.
        #expect(throws: AuthError.tokenExpired) {
            try service.refresh(project: project, refreshToken: freshTokens.refreshToken)
        }
        #expect(throws: AuthError.invalidRefreshToken) { try service.refresh(project: project, refreshToken: "nope") }
        #expect(throws: AuthError(.missingRefreshToken)) { try service.refresh(project: project, refreshToken: "") }
    }

    @Test func emailChangesKeepEmailsUniqueAndReportThePreviousAddress() throws {
        let fixture = try AccountFixture()
        let service = fixture.service
        let project = fixture.project
        let first = try service.signUp(
            project: project,
            email: "first@example.com",
            password: "password-1",
            displayName: nil,
            clientAddress: "x"
        )
        _ = try service.signUp(
            project: project,
            email: "second@example.com",
            password: "password-1",
            displayName: nil,
            clientAddress: "x"
        )
        #expect(throws: AuthError.emailExists) {
            try service.changeEmail(project: project, localID: first.account.localID, to: "SECOND@example.com")
        }
        let outcome = try service.changeEmail(project: project, localID: first.account.localID, to: "Third@Example.com")
        #expect(outcome.account.email == "third@example.com")
        #expect(outcome.previousEmail == .some("first@example.com"))
        #expect(try service.account(project: project, email: "first@example.com") == nil)
        #expect(throws: AuthError.emailExists) {
            try service.signUp(
                project: project,
                email: "third@example.com",
                password: "password-1",
                displayName: nil,
                clientAddress: "x"
            )
        }
    }

    @Test func theAppLanguageAtSignUpBecomesTheUsersLanguage() throws {
        let fixture = try AccountFixture()
        let service = fixture.service
        let project = fixture.project
        let cases: [(String?, String?)] = [
            ("pt_BR", "pt-BR"), ("fa", "fa"), ("en-US ", "en-US"), ("<script>", nil), (nil, nil),
        ]
        for (index, (header, stored)) in cases.enumerated() {
            let signedUp = try service.signUp(
                project: project,
                email: "lang\(index)@example.com",
                password: "password-1",
                displayName: nil,
                language: header,
                clientAddress: "x"
            )
            #expect(signedUp.account.language == stored, "\(header ?? "nil")")
        }
    }

    @Test func signingInByEmailCreatesOnceThenSignsInTheSameAccount() throws {
        let fixture = try AccountFixture()
        let first = try fixture.service.signInOrCreate(project: fixture.project, email: "Link@Example.com")
        #expect(first.isNewUser)
        #expect(first.account.emailVerified)
        #expect(first.account.signInMethods == ["emailLink"])
        let again = try fixture.service.signInOrCreate(project: fixture.project, email: "link@example.com")
        #expect(!again.isNewUser)
        #expect(again.account.localID == first.account.localID)
    }

    @Test func listingPagesThroughEveryAccountInIDOrder() throws {
        let fixture = try AccountFixture()
        var created: [String] = []
        for index in 0..<7 {
            var draft = AccountDraft()
            draft.localID = "user-\(index)"
            created.append(try fixture.service.create(project: fixture.project, draft: draft).localID)
        }
        var seen: [String] = []
        var token: String?
        repeat {
            let page = try fixture.service.list(project: fixture.project, pageToken: token, maxResults: 3)
            #expect(page.accounts.count <= 3)
            seen += page.accounts.map(\.localID)
            token = page.nextPageToken
        } while token != nil
        #expect(seen == created.sorted())
    }

    @Test func batchDeleteSparesEnabledAccountsUnlessForced() throws {
        let fixture = try AccountFixture()
        var enabled = AccountDraft()
        enabled.localID = "enabled"
        var disabled = AccountDraft()
        disabled.localID = "disabled"
        disabled.disabled = true
        _ = try fixture.service.create(project: fixture.project, draft: enabled)
        _ = try fixture.service.create(project: fixture.project, draft: disabled)
        let failures = try fixture.service.batchDelete(
            project: fixture.project,
            localIDs: ["enabled", "disabled", "ghost"],
            force: false
        )
        #expect(failures.map(\.localID) == ["enabled"])
        #expect(failures.first?.index == 0)
        #expect(try fixture.service.account(project: fixture.project, localID: "disabled") == nil)
        #expect(try fixture.service.batchDelete(project: fixture.project, localIDs: ["enabled"], force: true).isEmpty)
        #expect(try fixture.service.account(project: fixture.project, localID: "enabled") == nil)
    }

    /// The decoded payload of a compact JWT.
    static func payload(of token: String) -> [UInt8] {
        var part = String(token.split(separator: ".")[1]).replacing("-", with: "+").replacing("_", with: "/")
        while part.utf8.count % 4 != 0 { part += "=" }
        return Array(base64Decode(part))
    }

    private static func base64Decode(_ text: String) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var values: [UInt8: UInt32] = [:]
        for (index, byte) in alphabet.enumerated() { values[byte] = UInt32(index) }
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in text.utf8 where byte != UInt8(ascii: "=") {
            buffer = (buffer << 6) | (values[byte] ?? 0)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        return output
    }
}
