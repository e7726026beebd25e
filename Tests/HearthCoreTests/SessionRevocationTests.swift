import HearthBase
import HearthCore
import HearthStore
import Testing

/// Revocation at millisecond precision: every refresh token issued at or before a revocation
/// is refused, a sign-in after it works, and ID tokens keep Firebase's rule in whole seconds.
/// The fixture's clock starts on a whole second (1_800_000_000_000 ms).
@Suite struct SessionRevocationTests {
    private func signUp(_ fixture: AccountFixture, _ email: String = "rev@example.com") throws
        -> AccountService.SignedIn
    {
        try fixture.service.signUp(
            project: fixture.project,
            email: email,
            password: "password-1",
            displayName: nil,
            clientAddress: "10.0.0.9"
        )
    }

    private func signIn(_ fixture: AccountFixture, password: String = "password-1") throws -> AccountService.SignedIn {
        try fixture.service.signIn(
            project: fixture.project,
            email: "rev@example.com",
            password: password,
            clientAddress: "10.0.0.9"
        )
    }

    private func refreshes(_ fixture: AccountFixture, _ signedIn: AccountService.SignedIn) -> Bool {
        (try? fixture.service.refresh(project: fixture.project, refreshToken: signedIn.tokens.refreshToken)) != nil
    }

    /// What firebase-admin's `revoke_refresh_tokens` sends: `validSince` = now, truncated to seconds.
    private func revoke(_ fixture: AccountFixture, _ localID: String) throws {
        var changes = AccountChanges()
        changes.validSinceSeconds = fixture.clock.nowMilliseconds() / 1_000
        try fixture.service.update(project: fixture.project, localID: localID, changes: changes)
    }

    @Test func aRevocationEndsASessionBegunEarlierInTheSameSecond() throws {
        let fixture = try AccountFixture()
        fixture.clock.advance(milliseconds: 100)
        let session = try signUp(fixture)
        fixture.clock.advance(milliseconds: 300)
        try revoke(fixture, session.account.localID)

        #expect(throws: AuthError.tokenExpired) {
            try fixture.service.refresh(project: fixture.project, refreshToken: session.tokens.refreshToken)
        }
        // The ID token keeps Firebase's rule: issued in the second of `validSince`, it is not
        // revoked (what firebase-admin's check_revoked also answers).
        let (account, _) = try fixture.service.authenticate(idToken: session.tokens.idToken, project: fixture.project)
        #expect(account.validSinceSeconds == 1_800_000_000)
        #expect(account.sessionsRevokedAt == 1_800_000_000_400)
    }

    @Test func aSessionBegunInTheMillisecondOfTheRevocationEndsAndOneBegunAfterItWorks() throws {
        let fixture = try AccountFixture()
        let first = try signUp(fixture)
        fixture.clock.advance(milliseconds: 250)
        let sameInstant = try signIn(fixture)
        try revoke(fixture, first.account.localID)
        #expect(!refreshes(fixture, first))
        #expect(!refreshes(fixture, sameInstant))

        fixture.clock.advance(milliseconds: 1)
        let after = try signIn(fixture)
        #expect(refreshes(fixture, after))
        #expect(throws: Never.self) {
            try fixture.service.authenticate(idToken: after.tokens.idToken, project: fixture.project)
        }
    }

    @Test func idTokensFromBeforeTheSecondOfValidSinceAreRevoked() throws {
        let fixture = try AccountFixture()
        let session = try signUp(fixture)
        fixture.clock.advance(milliseconds: 1_500)
        try revoke(fixture, session.account.localID)
        #expect(throws: AuthError.tokenExpired) {
            try fixture.service.authenticate(idToken: session.tokens.idToken, project: fixture.project)
        }
        #expect(!refreshes(fixture, session))
    }

    @Test func aValidSinceInThePastEndsOnlySessionsIssuedUpToTheEndOfThatSecond() throws {
        let fixture = try AccountFixture()
        let early = try signUp(fixture)
        fixture.clock.advance(milliseconds: 999)
        let endOfSecond = try signIn(fixture)
        fixture.clock.advance(milliseconds: 1)
        let nextSecond = try signIn(fixture)
        fixture.clock.advance(milliseconds: 5_000)

        var changes = AccountChanges()
        changes.validSinceSeconds = 1_800_000_000
        try fixture.service.update(project: fixture.project, localID: early.account.localID, changes: changes)
        #expect(!refreshes(fixture, early))
        #expect(!refreshes(fixture, endOfSecond))
        #expect(refreshes(fixture, nextSecond))
        let account = try #require(
            try fixture.service.account(project: fixture.project, localID: early.account.localID)
        )
        #expect(account.validSinceSeconds == 1_800_000_000)
    }

    @Test func aValidSinceInTheFutureRevokesUpToNowAndLetsLaterSignInsWork() throws {
        let fixture = try AccountFixture()
        let session = try signUp(fixture)
        fixture.clock.advance(milliseconds: 10)
        var changes = AccountChanges()
        changes.validSinceSeconds = 1_900_000_000
        try fixture.service.update(project: fixture.project, localID: session.account.localID, changes: changes)
        #expect(!refreshes(fixture, session))
        let account = try #require(
            try fixture.service.account(project: fixture.project, localID: session.account.localID)
        )
        #expect(account.validSinceSeconds == 1_800_000_000)
        fixture.clock.advance(milliseconds: 1)
        #expect(refreshes(fixture, try signIn(fixture)))
    }

    @Test func anEarlierValidSinceBringsNoEndedSessionBack() throws {
        let fixture = try AccountFixture()
        let session = try signUp(fixture)
        fixture.clock.advance(milliseconds: 2_000)
        try revoke(fixture, session.account.localID)
        var earlier = AccountChanges()
        earlier.validSinceSeconds = 1_000
        try fixture.service.update(project: fixture.project, localID: session.account.localID, changes: earlier)
        #expect(!refreshes(fixture, session))
        let account = try #require(
            try fixture.service.account(project: fixture.project, localID: session.account.localID)
        )
        #expect(account.validSinceSeconds == 1_000)
        #expect(account.sessionsRevokedAt == 1_800_000_002_000)
    }

    @Test func aPasswordChangeEndsSessionsOfItsMillisecondButKeepsTheOneItStarts() throws {
        let fixture = try AccountFixture()
        let first = try signUp(fixture)
        fixture.clock.advance(milliseconds: 40)
        let sameInstant = try signIn(fixture)
        let (_, started) = try fixture.service.update(
            project: fixture.project,
            localID: first.account.localID,
            changes: try fixture.service.passwordChange("password-2"),
            startSession: true
        )
        let own = try #require(started)
        #expect(!refreshes(fixture, first))
        #expect(!refreshes(fixture, sameInstant))
        #expect(throws: Never.self) {
            try fixture.service.refresh(project: fixture.project, refreshToken: own.refreshToken)
        }

        // A second revocation in that same millisecond ends the session the change started.
        var disable = AccountChanges()
        disable.disabled = true
        try fixture.service.update(project: fixture.project, localID: first.account.localID, changes: disable)
        var enable = AccountChanges()
        enable.disabled = false
        try fixture.service.update(project: fixture.project, localID: first.account.localID, changes: enable)
        #expect(throws: AuthError.tokenExpired) {
            try fixture.service.refresh(project: fixture.project, refreshToken: own.refreshToken)
        }
        fixture.clock.advance(milliseconds: 2)
        #expect(refreshes(fixture, try signIn(fixture, password: "password-2")))
    }

    @Test func disablingEndsSessionsOfItsSecondForGoodAndASignInAfterReEnablingWorks() throws {
        let fixture = try AccountFixture()
        fixture.clock.advance(milliseconds: 700)
        let session = try signUp(fixture)
        fixture.clock.advance(milliseconds: 100)
        var disable = AccountChanges()
        disable.disabled = true
        try fixture.service.update(project: fixture.project, localID: session.account.localID, changes: disable)
        #expect(throws: AuthError.userDisabled) {
            try fixture.service.refresh(project: fixture.project, refreshToken: session.tokens.refreshToken)
        }
        var enable = AccountChanges()
        enable.disabled = false
        try fixture.service.update(project: fixture.project, localID: session.account.localID, changes: enable)
        #expect(throws: AuthError.tokenExpired) {
            try fixture.service.refresh(project: fixture.project, refreshToken: session.tokens.refreshToken)
        }
        fixture.clock.advance(milliseconds: 1)
        #expect(refreshes(fixture, try signIn(fixture)))
    }

    @Test func revokedTokensAreMarkedForTheSweepOnlyWhenIssuedUpToTheRevocation() throws {
        let fixture = try AccountFixture()
        let early = try signUp(fixture)
        fixture.clock.advance(milliseconds: 3_000)
        let late = try signIn(fixture)
        var changes = AccountChanges()
        changes.validSinceSeconds = 1_800_000_001
        try fixture.service.update(project: fixture.project, localID: early.account.localID, changes: changes)
        let stored = try fixture.temporary.store.read {
            try $0.refreshTokens(projectID: fixture.project.id, localID: early.account.localID)
        }
        #expect(stored.map { $0.revokedAt != nil } == [false, true])
        #expect(refreshes(fixture, late))
    }

    @Test func aTokenRecordedAfterTheRevocationItPredatesIsRefusedAndMarkedForTheSweep() throws {
        let fixture = try AccountFixture()
        let session = try signUp(fixture)
        fixture.clock.advance(milliseconds: 500)
        try revoke(fixture, session.account.localID)
        // A sign-in that read the clock before the revocation and was recorded after it.
        let (late, hash) = RefreshToken.generate()
        let record = RefreshTokenRecord(
            tokenHash: hash,
            projectID: fixture.project.id,
            localID: session.account.localID,
            authTimeSeconds: 1_800_000_000,
            createdAt: 1_800_000_000_499
        )
        try fixture.temporary.store.write { try $0.insertRefreshToken(record) }
        #expect(throws: AuthError.tokenExpired) {
            try fixture.service.refresh(project: fixture.project, refreshToken: late)
        }
        try fixture.temporary.store.write { _ in }  // after the queued bookkeeping
        let stored = try fixture.temporary.store.read {
            try $0.refreshTokens(projectID: fixture.project.id, localID: session.account.localID)
        }
        #expect(stored.allSatisfy { $0.revokedAt != nil })
    }

    @Test func theRuleCannotOverflowOnAnAbsurdValidSince() {
        #expect(
            SessionRevocation.instant(validSinceSeconds: .max, nowMilliseconds: 5_000, after: nil) == 5_000
        )
        #expect(SessionRevocation.instant(validSinceSeconds: 2, nowMilliseconds: 5_000, after: nil) == 2_999)
        #expect(SessionRevocation.instant(nowMilliseconds: 5_000, after: 5_000) == 5_001)
        #expect(SessionRevocation.instant(nowMilliseconds: 5_000, after: 4_000) == 5_000)
    }
}
