import HearthStore
import Testing

/// The accounts area's statements, run against every store implementation: uniqueness of IDs
/// and emails, full-row updates, paging, refresh tokens joined with their account, revocation,
/// and the cascade from accounts and projects.
@Suite struct AccountStoreContractTests {
    private func fixture(_ kind: StoreKind) throws -> StoreFixture {
        let fixture = try StoreFixture(kind)
        try fixture.addDemoProject()
        return fixture
    }

    private func account(_ localID: String, email: String? = nil) -> AccountRecord {
        AccountRecord(
            projectID: "demo-project",
            localID: localID,
            email: email,
            passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g",
            passwordUpdatedAt: 1_000,
            displayName: "Name \(localID)",
            customAttributes: #"{"role":"x"}"#,
            language: "it",
            createdAt: 1_000,
            validSinceSeconds: 1
        )
    }

    @Test(arguments: StoreKind.allCases)
    func accountsRoundTripAndAreFoundByIDAndEmail(kind: StoreKind) throws {
        let fixture = try fixture(kind)
        var stored = account("u1", email: "a@example.com")
        stored.emailVerified = true
        stored.emailLinkSignIn = true
        stored.lastLoginAt = 2_000
        let record = stored
        try fixture.store.write { try $0.insertAccount(record) }
        #expect(try fixture.store.read { try $0.account(projectID: "demo-project", localID: "u1") } == record)
        #expect(try fixture.store.read { try $0.account(projectID: "demo-project", email: "a@example.com") } == record)
        #expect(try fixture.store.read { try $0.account(projectID: "demo-project", email: "b@example.com") } == nil)
        #expect(try fixture.store.read { try $0.accountCount(projectID: "demo-project") } == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func idsAndEmailsAreUniquePerProjectButManyAccountsMayHaveNoEmail(kind: StoreKind) throws {
        let fixture = try fixture(kind)
        try fixture.store.write { transaction in
            try transaction.insertAccount(account("u1", email: "a@example.com"))
            try transaction.insertAccount(account("u2"))
            try transaction.insertAccount(account("u3"))
        }
        let duplicateEmail = account("u4", email: "a@example.com")
        #expect(throws: StoreError.self) { try fixture.store.write { try $0.insertAccount(duplicateEmail) } }
        let duplicateID = account("u1", email: "z@example.com")
        do {
            try fixture.store.write { try $0.insertAccount(duplicateID) }
            Issue.record("a duplicate ID was stored")
        } catch let error as StoreError {
            #expect(error.kind == .uniqueViolation)
        }
        let clash = account("u2", email: "a@example.com")
        #expect(throws: StoreError.self) { try fixture.store.write { try $0.updateAccount(clash) } }
    }

    @Test(arguments: StoreKind.allCases)
    func anUpdateReplacesEveryFieldAndPagesFollowTheID(kind: StoreKind) throws {
        let fixture = try fixture(kind)
        try fixture.store.write { transaction in
            for id in ["c", "a", "d", "b"] { try transaction.insertAccount(account(id)) }
        }
        var changed = account("b", email: "b@example.com")
        changed.disabled = true
        changed.passwordHash = nil
        changed.displayName = nil
        changed.validSinceSeconds = 77
        let record = changed
        #expect(try fixture.store.write { try $0.updateAccount(record) })
        #expect(try fixture.store.read { try $0.account(projectID: "demo-project", localID: "b") } == record)
        let ghost = account("ghost")
        #expect(try !fixture.store.write { try $0.updateAccount(ghost) })

        let first = try fixture.store.read { try $0.accounts(projectID: "demo-project", after: nil, limit: 3) }
        #expect(first.map(\.localID) == ["a", "b", "c"])
        let second = try fixture.store.read { try $0.accounts(projectID: "demo-project", after: "c", limit: 3) }
        #expect(second.map(\.localID) == ["d"])
    }

    @Test(arguments: StoreKind.allCases)
    func refreshTokensJoinTheirAccountAndAreRevokedTogether(kind: StoreKind) throws {
        let fixture = try fixture(kind)
        let hashes: [[UInt8]] = [Array(repeating: 1, count: 32), Array(repeating: 2, count: 32)]
        try fixture.store.write { transaction in
            try transaction.insertAccount(account("u1", email: "a@example.com"))
            for (index, hash) in hashes.enumerated() {
                try transaction.insertRefreshToken(
                    RefreshTokenRecord(
                        tokenHash: hash,
                        projectID: "demo-project",
                        localID: "u1",
                        authTimeSeconds: 5,
                        createdAt: Int64(10 + index)
                    )
                )
            }
        }
        let found = try #require(try fixture.store.read { try $0.refreshTokenWithAccount(hash: hashes[0]) })
        #expect(found.0.authTimeSeconds == 5)
        #expect(found.0.revokedAt == nil)
        #expect(found.1.email == "a@example.com")
        #expect(try fixture.store.read { try $0.refreshTokenWithAccount(hash: Array(repeating: 9, count: 32)) } == nil)

        #expect(
            try fixture.store.write { try $0.revokeRefreshTokens(projectID: "demo-project", localID: "u1", at: 100) }
                == 2
        )
        #expect(
            try fixture.store.write { try $0.revokeRefreshTokens(projectID: "demo-project", localID: "u1", at: 200) }
                == 0
        )
        let tokens = try fixture.store.read { try $0.refreshTokens(projectID: "demo-project", localID: "u1") }
        #expect(tokens.map(\.revokedAt) == [100, 100])
        #expect(tokens.map(\.createdAt) == [11, 10])

        #expect(try fixture.store.write { try $0.deleteRevokedRefreshTokens(before: 100) } == 0)
        #expect(try fixture.store.write { try $0.deleteRevokedRefreshTokens(before: 101) } == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func deletingAnAccountOrItsProjectRemovesItsTokens(kind: StoreKind) throws {
        let fixture = try fixture(kind)
        let hash: [UInt8] = Array(repeating: 7, count: 32)
        try fixture.store.write { transaction in
            try transaction.insertAccount(account("u1"))
            try transaction.insertAccount(account("u2"))
            try transaction.insertRefreshToken(
                RefreshTokenRecord(
                    tokenHash: hash,
                    projectID: "demo-project",
                    localID: "u1",
                    authTimeSeconds: 1,
                    createdAt: 1
                )
            )
        }
        #expect(try fixture.store.write { try $0.deleteAccount(projectID: "demo-project", localID: "u1") })
        #expect(try !fixture.store.write { try $0.deleteAccount(projectID: "demo-project", localID: "u1") })
        #expect(try fixture.store.read { try $0.refreshTokens(projectID: "demo-project", localID: "u1") }.isEmpty)
        #expect(try fixture.store.write { try $0.deleteProject(id: "demo-project") })
        #expect(try fixture.store.read { try $0.account(projectID: "demo-project", localID: "u2") } == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func aRefreshTimeOnlyMovesForward(kind: StoreKind) throws {
        let fixture = try fixture(kind)
        try fixture.store.write { try $0.insertAccount(account("u1")) }
        try fixture.store.write { try $0.touchAccountRefresh(projectID: "demo-project", localID: "u1", at: 500) }
        try fixture.store.write { try $0.touchAccountRefresh(projectID: "demo-project", localID: "u1", at: 400) }
        #expect(
            try fixture.store.read { try $0.account(projectID: "demo-project", localID: "u1") }?.lastRefreshAt == 500
        )
    }
}
