import HearthBase
import HearthCore
import HearthCrypto
import HearthStore
import Testing

@Suite struct AdminCredentialsTests {
    private func setUp(_ temporary: TemporaryStore, seed: Bool) throws -> AdminCredentials {
        let directory = try ProjectDirectory(store: temporary.store, clock: SystemClock())
        try directory.save(DevelopmentSeed.project)
        try directory.save(Project(id: "other-project", number: "200000000000", apiKeys: ["other-key"]))
        return AdminCredentials(
            store: temporary.store,
            clock: SystemClock(),
            developmentProjectID: seed ? DevelopmentSeed.projectID : nil
        )
    }

    @Test func aCreatedCredentialAuthorisesItsProjectOnly() throws {
        let temporary = try TemporaryStore()
        let credentials = try setUp(temporary, seed: false)
        let (credential, record) = try credentials.create(projectID: "other-project", label: "ci")
        #expect(credential.hasPrefix("hak_\(record.credentialID)_"))
        #expect(throws: Never.self) {
            try credentials.authenticate(
                authorization: "Bearer \(credential)",
                projectID: "other-project",
                clientAddress: "192.0.2.1"
            )
        }
        #expect(throws: Never.self) {
            try credentials.authenticate(
                authorization: "bearer  \(credential)",
                projectID: "other-project",
                clientAddress: "192.0.2.1"
            )
        }
        #expect(throws: AdminAuthenticationError.forbidden) {
            try credentials.authenticate(
                authorization: "Bearer \(credential)",
                projectID: "demo-project",
                clientAddress: "192.0.2.1"
            )
        }
    }

    @Test func onlyAHashOfTheSecretIsStored() throws {
        let temporary = try TemporaryStore()
        let credentials = try setUp(temporary, seed: false)
        let (credential, record) = try credentials.create(projectID: "other-project", label: "ci")
        // The secret is everything after `hak_<id>_` (its base64url text may hold `_` too).
        let secret = credential.dropFirst("\(AdminCredentials.prefix)\(record.credentialID)_".count)
        #expect(secret.utf8.count == 43)
        let stored = try #require(try temporary.store.read { try $0.adminCredential(id: record.credentialID) })
        #expect(stored.secretHash == SHA256.hash(utf8Of: String(secret)))
    }

    @Test func missingWrongAndRevokedCredentialsAreRefused() throws {
        let temporary = try TemporaryStore()
        let credentials = try setUp(temporary, seed: false)
        let (credential, record) = try credentials.create(projectID: "other-project", label: "ci")
        #expect(throws: AdminAuthenticationError.missing) {
            try credentials.authenticate(authorization: nil, projectID: "other-project", clientAddress: "192.0.2.1")
        }
        #expect(throws: AdminAuthenticationError.missing) {
            try credentials.authenticate(
                authorization: "Basic abc",
                projectID: "other-project",
                clientAddress: "192.0.2.1"
            )
        }
        #expect(throws: AdminAuthenticationError.invalid) {
            try credentials.authenticate(
                authorization: "Bearer \(credential)x",
                projectID: "other-project",
                clientAddress: "192.0.2.1"
            )
        }
        #expect(throws: AdminAuthenticationError.invalid) {
            try credentials.authenticate(
                authorization: "Bearer hak_nothing",
                projectID: "other-project",
                clientAddress: "192.0.2.1"
            )
        }
        #expect(try credentials.revoke(id: record.credentialID))
        #expect(try !credentials.revoke(id: record.credentialID))
        #expect(throws: AdminAuthenticationError.invalid) {
            try credentials.authenticate(
                authorization: "Bearer \(credential)",
                projectID: "other-project",
                clientAddress: "192.0.2.1"
            )
        }
    }

    @Test func ownerWorksForTheSeedProjectOnlyAndOnlyWhenTheSeedRuns() throws {
        let temporary = try TemporaryStore()
        let seeded = try setUp(temporary, seed: true)
        #expect(throws: Never.self) {
            try seeded.authenticate(
                authorization: "Bearer owner",
                projectID: "demo-project",
                clientAddress: "192.0.2.1"
            )
        }
        #expect(throws: AdminAuthenticationError.invalid) {
            try seeded.authenticate(
                authorization: "Bearer owner",
                projectID: "other-project",
                clientAddress: "192.0.2.1"
            )
        }
        let production = AdminCredentials(store: temporary.store, clock: SystemClock(), developmentProjectID: nil)
        #expect(throws: AdminAuthenticationError.invalid) {
            try production.authenticate(
                authorization: "Bearer owner",
                projectID: "demo-project",
                clientAddress: "192.0.2.1"
            )
        }
    }

    @Test("Wrong credentials back off per address; the right one from elsewhere works and a success writes nothing")
    func failedAuthenticationsBackOffPerAddress() throws {
        let temporary = try TemporaryStore()
        let clock = ManualClock(milliseconds: 1_800_000_000_000)
        _ = try setUp(temporary, seed: false)
        let credentials = AdminCredentials(
            store: temporary.store,
            clock: clock,
            developmentProjectID: nil,
            failures: FailureBackoff(
                name: "admin",
                freeFailures: 2,
                schedule: RetrySchedule(baseMilliseconds: 1_000, maximumMilliseconds: 4_000),
                memorySeconds: 3_600
            )
        )
        let (credential, record) = try credentials.create(projectID: "other-project", label: "ci")
        let now = clock.nowSeconds()
        // Recently used: a success has no reason to touch it.
        try temporary.store.write { try $0.touchAdminCredential(id: record.credentialID, at: now) }
        func attempt(_ authorization: String, from address: String) -> AdminAuthenticationError? {
            do throws(AdminAuthenticationError) {
                try credentials.authenticate(
                    authorization: authorization,
                    projectID: "other-project",
                    clientAddress: address
                )
                return nil
            } catch {
                return error
            }
        }
        let wrong = "Bearer \(credential.dropLast())x"
        for _ in 0..<3 { #expect(attempt(wrong, from: "203.0.113.9") == .invalid) }
        #expect(attempt(wrong, from: "203.0.113.9") == .throttled(retryAfterSeconds: 1))
        #expect(attempt("Bearer \(credential)", from: "203.0.113.9") == .throttled(retryAfterSeconds: 1))
        let writes = temporary.store.statistics.writes
        for _ in 0..<20 { #expect(attempt("Bearer \(credential)", from: "198.51.100.7") == nil) }
        #expect(temporary.store.statistics.writes == writes, "a success writes nothing")
        #expect(attempt("Bearer hak_junk", from: "203.0.113.9") == .throttled(retryAfterSeconds: 1))
        #expect(temporary.store.statistics.writes == writes, "a refused attempt writes nothing")

        clock.advance(milliseconds: 1_000)
        #expect(attempt(wrong, from: "203.0.113.9") == .invalid)
        #expect(attempt(wrong, from: "203.0.113.9") == .throttled(retryAfterSeconds: 2))
        clock.advance(milliseconds: 2_000)
        #expect(attempt("Bearer \(credential)", from: "203.0.113.9") == nil)
    }
}

@Suite struct RateLimitTests {
    @Test func theLimitHoldsWithinAWindowAndResetsInTheNext() throws {
        let temporary = try TemporaryStore()
        let limit = RateLimit(name: "test", limit: 3, windowSeconds: 60)
        func hit(at now: Int64) throws -> Bool {
            try temporary.store.write { try limit.record("k", in: $0, now: now) }
        }
        #expect(try hit(at: 120))
        #expect(try hit(at: 130))
        #expect(try hit(at: 179))
        #expect(try !hit(at: 179))
        #expect(try temporary.store.read { try limit.isExhausted("k", in: $0, now: 150) })
        #expect(try hit(at: 180))
        #expect(try temporary.store.read { try !limit.isExhausted("other", in: $0, now: 150) })
    }

    @Test func severalLimitsAreCountedTogetherInOrder() throws {
        let temporary = try TemporaryStore()
        let small = RateLimit(name: "small", limit: 1, windowSeconds: 60)
        let large = RateLimit(name: "large", limit: 3, windowSeconds: 60)
        func hit() throws -> [Bool] {
            try temporary.store.write { try RateLimit.record([(small, "k"), (large, "k")], in: $0, now: 10) }
        }
        #expect(try hit() == [true, true])
        #expect(try hit() == [false, true])
        #expect(try hit() == [false, true])
        #expect(try hit() == [false, false])
        #expect(try temporary.store.read { try large.isExhausted("k", in: $0, now: 10) })
    }

    @Test func anAdmissionIsCountedOnlyWhenEveryLimitHasRoom() throws {
        let temporary = try TemporaryStore()
        let small = RateLimit(name: "small", limit: 1, windowSeconds: 60)
        let large = RateLimit(name: "large", limit: 2, windowSeconds: 60)
        func admit() throws -> Bool {
            try temporary.store.write { try RateLimit.admit([(small, "k"), (large, "k")], in: $0, now: 10) }
        }
        #expect(try admit())
        #expect(try !admit())
        #expect(try !admit())
        // The refusals counted nothing: the large limit still has room for one.
        #expect(try temporary.store.read { try !large.isExhausted("k", in: $0, now: 10) })
        #expect(try temporary.store.write { try large.record("k", in: $0, now: 10) })
        #expect(try temporary.store.read { try large.isExhausted("k", in: $0, now: 10) })
    }

    @Test func anAdmissionRefusedByALaterLimitTakesBackTheEarlierCounts() throws {
        let temporary = try TemporaryStore()
        let first = RateLimit(name: "first", limit: 3, windowSeconds: 60)
        let second = RateLimit(name: "second", limit: 1, windowSeconds: 60)
        func admit(_ key: String) throws -> Bool {
            try temporary.store.write { try RateLimit.admit([(first, "k"), (second, key)], in: $0, now: 10) }
        }
        #expect(try admit("a"))
        #expect(try !admit("a"))
        #expect(try !admit("a"))
        // Only the admission counted against the first limit: two more fit, then it is full.
        #expect(try admit("b"))
        #expect(try temporary.store.read { try !first.isExhausted("k", in: $0, now: 10) })
        #expect(try admit("c"))
        #expect(try temporary.store.read { try first.isExhausted("k", in: $0, now: 10) })
        #expect(try !admit("d"))
        // Refused by the first limit: the second's key "d" was never counted.
        #expect(try temporary.store.read { try !second.isExhausted("d", in: $0, now: 10) })
    }

    @Test func aResetForgetsTheCount() throws {
        let temporary = try TemporaryStore()
        let limit = RateLimit(name: "test", limit: 1, windowSeconds: 60)
        #expect(try temporary.store.write { try limit.record("k", in: $0, now: 10) })
        try temporary.store.write { try limit.reset("k", in: $0) }
        #expect(try temporary.store.write { try limit.record("k", in: $0, now: 11) })
    }
}
