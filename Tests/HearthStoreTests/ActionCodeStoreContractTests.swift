import HearthStore
import Testing

/// The action codes' statements: single use, and the purge of expired codes by a range of
/// keys (codes are keyed by their expiry time; codes stored before that rule by their
/// creation time).
@Suite struct ActionCodeStoreContractTests {
    private func fixture(_ kind: StoreKind) throws -> StoreFixture {
        let fixture = try StoreFixture(kind)
        try fixture.addDemoProject()
        return fixture
    }

    /// A key as codes are stored: a 6-byte big-endian time, then a hash (here one repeated byte).
    private func key(time: Int64, _ filler: UInt8) -> [UInt8] {
        (0..<6).reversed().map { UInt8(truncatingIfNeeded: time >> ($0 * 8)) } + [UInt8](repeating: filler, count: 32)
    }

    private func code(_ key: [UInt8], expiresAt: Int64) -> ActionCodeRecord {
        ActionCodeRecord(
            codeHash: key,
            projectID: "demo-project",
            operation: "PASSWORD_RESET",
            localID: "u1",
            email: "a@example.com",
            newEmail: nil,
            continueURL: nil,
            language: nil,
            createdAt: 1,
            expiresAt: expiresAt
        )
    }

    private func stored(_ fixture: StoreFixture, _ keys: [[UInt8]]) throws -> [Bool] {
        try fixture.store.read { reading in try keys.map { try reading.actionCode(hash: $0) != nil } }
    }

    @Test(arguments: StoreKind.allCases)
    func aCodeIsUsedOnce(kind: StoreKind) throws {
        let fixture = try fixture(kind)
        let key = key(time: 5_000, 1)
        try fixture.store.write { try $0.insertActionCode(code(key, expiresAt: 5_000)) }
        #expect(try fixture.store.write { try $0.consumeActionCode(hash: key, at: 10) })
        #expect(try fixture.store.write { try $0.consumeActionCode(hash: key, at: 11) } == false)
        #expect(try fixture.store.read { try $0.actionCode(hash: key)?.consumedAt } == 10)
    }

    @Test(arguments: StoreKind.allCases)
    func thePurgeTakesExpiredCodesBelowTheBoundAndKeepsTheRest(kind: StoreKind) throws {
        let fixture = try fixture(kind)
        let expiredEarly = key(time: 1_000, 1)
        let expiredLater = key(time: 2_000, 2)
        let live = key(time: 4_000, 3)
        // Keyed by creation time (the earlier rule): below the bound, but not yet expired.
        let oldRuleLive = key(time: 500, 4)
        let oldRuleExpired = key(time: 400, 5)
        let all = [expiredEarly, expiredLater, live, oldRuleLive, oldRuleExpired]
        try fixture.store.write { transaction in
            try transaction.insertActionCode(code(expiredEarly, expiresAt: 1_000))
            try transaction.insertActionCode(code(expiredLater, expiresAt: 2_000))
            try transaction.insertActionCode(code(live, expiresAt: 4_000))
            try transaction.insertActionCode(code(oldRuleLive, expiresAt: 3_500))
            try transaction.insertActionCode(code(oldRuleExpired, expiresAt: 900))
        }
        let bound = key(time: 3_000, 0).prefix(6)
        // At most one per call: the oldest key goes first.
        #expect(
            try fixture.store.write {
                try $0.deleteExpiredActionCodes(before: 3_000, keysBelow: Array(bound), limit: 1)
            } == 1
        )
        #expect(try stored(fixture, all) == [true, true, true, true, false])
        #expect(
            try fixture.store.write { try $0.deleteExpiredActionCodes(before: 3_000, keysBelow: Array(bound)) } == 2
        )
        #expect(try stored(fixture, all) == [false, false, true, true, false])
        #expect(
            try fixture.store.write { try $0.deleteExpiredActionCodes(before: 3_000, keysBelow: Array(bound)) } == 0
        )
        let later = Array(key(time: 5_000, 0).prefix(6))
        #expect(try fixture.store.write { try $0.deleteExpiredActionCodes(before: 5_000, keysBelow: later) } == 2)
        #expect(try stored(fixture, all) == [false, false, false, false, false])
    }

    /// A database made before codes were keyed by expiry keeps its codes through the upgrade,
    /// loses the expiry index, and has its old codes purged once they expire.
    @Test(arguments: StoreKind.allCases)
    func codesStoredBeforeTheUpgradeStayUsableAndArePurgedWhenExpired(kind: StoreKind) throws {
        let before = Schema.migrations.filter { $0.version < 402 }
        let fixture = try StoreFixture(kind, migrations: before)
        try fixture.addDemoProject()
        let old = key(time: 1_000, 7)  // keyed by its creation time
        try fixture.store.write { try $0.insertActionCode(code(old, expiresAt: 9_000)) }
        try fixture.reopen()
        let catalog = SQLStatement(
            sqlite: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'action_codes'",
            postgres: "SELECT indexname FROM pg_indexes WHERE tablename = 'action_codes'"
        )
        let indexes = try fixture.store.read { try $0.connection.query(catalog, []).map { $0.string(0) } }
        #expect(!indexes.contains("action_codes_by_expiry"))
        #expect(try stored(fixture, [old]) == [true])
        let bound = Array(key(time: 5_000, 0).prefix(6))
        #expect(try fixture.store.write { try $0.deleteExpiredActionCodes(before: 5_000, keysBelow: bound) } == 0)
        #expect(try fixture.store.write { try $0.consumeActionCode(hash: old, at: 2_000) })
        let later = Array(key(time: 10_000, 0).prefix(6))
        #expect(try fixture.store.write { try $0.deleteExpiredActionCodes(before: 10_000, keysBelow: later) } == 1)
        #expect(try stored(fixture, [old]) == [false])
    }
}
