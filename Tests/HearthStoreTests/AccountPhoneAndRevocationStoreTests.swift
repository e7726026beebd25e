import HearthStore
import Testing

/// The accounts area's later steps, against every store implementation: phone numbers (unique
/// per project) and the revocation instant, and a database made before them migrating to them.
@Suite struct AccountPhoneAndRevocationStoreTests {
    private func account(_ localID: String, phoneNumber: String? = nil, projectID: String = "demo-project")
        -> AccountRecord
    {
        AccountRecord(
            projectID: projectID,
            localID: localID,
            createdAt: 1_000,
            validSinceSeconds: 1,
            phoneNumber: phoneNumber
        )
    }

    private func token(_ byte: UInt8, createdAt: Int64) -> RefreshTokenRecord {
        RefreshTokenRecord(
            tokenHash: Array(repeating: byte, count: 32),
            projectID: "demo-project",
            localID: "u1",
            authTimeSeconds: 1,
            createdAt: createdAt
        )
    }

    @Test(arguments: StoreKind.allCases)
    func phoneNumbersAreFoundAndUniquePerProjectButManyAccountsMayHaveNone(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        try fixture.addDemoProject()
        try fixture.store.write { transaction in
            try transaction.saveProject(id: "other-project", number: "300000000000", document: "{}", at: 1)
            try transaction.insertAccount(account("u1", phoneNumber: "+15550000001"))
            try transaction.insertAccount(account("u2"))
            try transaction.insertAccount(account("u3"))
            try transaction.insertAccount(account("u1", phoneNumber: "+15550000001", projectID: "other-project"))
        }
        let found = try fixture.store.read { try $0.account(projectID: "demo-project", phoneNumber: "+15550000001") }
        #expect(found?.localID == "u1")
        #expect(found?.phoneNumber == "+15550000001")
        #expect(
            try fixture.store.read { try $0.account(projectID: "demo-project", phoneNumber: "+15550000009") } == nil
        )

        let duplicate = account("u4", phoneNumber: "+15550000001")
        do {
            try fixture.store.write { try $0.insertAccount(duplicate) }
            Issue.record("a phone number was stored twice in one project")
        } catch let error as StoreError {
            // The accounts domain tells this clash from an email clash by the name in the message.
            #expect(error.kind == .uniqueViolation)
            #expect(error.message.contains("phone_number"))
        }
        var moved = account("u2", phoneNumber: "+15550000001")
        moved.sessionsRevokedAt = 5
        let update = moved
        #expect(throws: StoreError.self) { try fixture.store.write { try $0.updateAccount(update) } }
        moved.phoneNumber = "+15550000002"
        let retry = moved
        try fixture.store.write { try $0.updateAccount(retry) }
        #expect(try fixture.store.read { try $0.account(projectID: "demo-project", localID: "u2") } == retry)
    }

    @Test(arguments: StoreKind.allCases)
    func revocationMarksOnlyTokensIssuedUpToItsInstant(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        try fixture.addDemoProject()
        try fixture.store.write { transaction in
            try transaction.insertAccount(account("u1"))
            try transaction.insertRefreshToken(token(1, createdAt: 1_000))
            try transaction.insertRefreshToken(token(2, createdAt: 1_999))
            try transaction.insertRefreshToken(token(3, createdAt: 2_000))
        }
        let marked = try fixture.store.write {
            try $0.revokeRefreshTokens(projectID: "demo-project", localID: "u1", issuedThrough: 1_999, at: 5_000)
        }
        #expect(marked == 2)
        let tokens = try fixture.store.read { try $0.refreshTokens(projectID: "demo-project", localID: "u1") }
        #expect(tokens.map(\.revokedAt) == [nil, 5_000, 5_000])
    }

    @Test(arguments: StoreKind.allCases)
    func accountsMadeBeforePhoneNumbersAndRevocationInstantsMigrateToNone(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, migrations: Schema.migrations.filter { !(201...202).contains($0.version) })
        try fixture.addDemoProject()
        try fixture.store.write { transaction in
            try transaction.connection.execute(
                SQLStatement(
                    oneOff: """
                        INSERT INTO accounts (project_id, local_id, email_verified, disabled, email_link_sign_in, created_at,
                            valid_since_seconds)
                        VALUES ('demo-project', 'old', 0, 0, 0, 1000, 1)
                        """
                ),
                []
            )
        }
        try fixture.reopen()
        let migrated = try #require(
            try fixture.store.read { try $0.account(projectID: "demo-project", localID: "old") }
        )
        #expect(migrated.phoneNumber == nil)
        #expect(migrated.sessionsRevokedAt == nil)
        #expect(migrated.validSinceSeconds == 1)
    }
}
