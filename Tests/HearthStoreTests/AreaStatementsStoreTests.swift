import Dispatch
import HearthStore
import Synchronization
import Testing

/// The statements of the areas that have no suite of their own here (installations and their
/// deletion webhooks, the mail outbox, rate counters, signing keys, admin credentials), run on
/// every store kind: one text, the same answers from both databases.
@Suite struct AreaStatementsStoreTests {
    private let project = "demo-project"

    private func fixture(_ kind: StoreKind) throws -> StoreFixture {
        let fixture = try StoreFixture(kind)
        try fixture.addDemoProject()
        return fixture
    }

    private func installation(_ fid: String, seen: Int64 = 10) -> InstallationRecord {
        InstallationRecord(
            projectID: project,
            fid: fid,
            appID: "1:100000000000:ios:abc",
            refreshTokenHash: [0, 1, 2, 250],
            sdkVersion: "i:1",
            createdMilliseconds: 10,
            lastSeenMilliseconds: seen
        )
    }

    @Test(arguments: StoreKind.allCases)
    func installationsAreRegisteredOnceAndNeverAfterTheirTombstone(kind: StoreKind) throws {
        let fixture = try fixture(kind)
        let store = fixture.store
        #expect(try store.write { try $0.insertInstallationIfNew(installation("f1")) })
        #expect(try store.write { try $0.insertInstallationIfNew(installation("f1")) } == false)
        try store.write { transaction in
            try transaction.touchInstallation(projectID: project, fid: "f1", appID: "a2", sdkVersion: "i:2", seenAt: 50)
            try transaction.touchInstallation(projectID: project, fid: "f1", appID: "a2", sdkVersion: "i:2", seenAt: 20)
        }
        let touched = try store.read { try $0.installation(projectID: project, fid: "f1") }
        #expect(touched?.lastSeenMilliseconds == 50 && touched?.appID == "a2")
        #expect(touched?.refreshTokenHash == [0, 1, 2, 250])
        #expect(
            try store.read { try $0.installationsSeenBefore(projectID: project, cutoffMilliseconds: 51, limit: 5) } == [
                "f1"
            ]
        )
        #expect(try store.write { try $0.removeInstallation(projectID: project, fid: "f1", seenBefore: 40) } == nil)
        let removed = try store.write { transaction in
            let app = try transaction.removeInstallation(projectID: project, fid: "f1")
            try transaction.insertInstallationTombstone(
                InstallationTombstoneRecord(
                    projectID: project,
                    fid: "f1",
                    appID: "a2",
                    deletedMilliseconds: 60,
                    cause: "client"
                )
            )
            return app
        }
        #expect(removed == "a2")
        #expect(try store.write { try $0.insertInstallationIfNew(installation("f1")) } == false)
        #expect(try store.read { try $0.installationCount(projectID: project) } == 0)
        let tombstones = try store.read { try $0.installationTombstones(projectID: project, after: nil, limit: 5) }
        #expect(tombstones.map(\.fid) == ["f1"])
    }

    @Test(arguments: StoreKind.allCases)
    func deletionDeliveriesAreClaimedByOneOwnerAndRecorded(kind: StoreKind) throws {
        let fixture = try fixture(kind)
        let store = fixture.store
        try store.write { transaction in
            for id in ["w1", "w2"] {
                try transaction.insertInstallationWebhook(
                    InstallationWebhookRecord(
                        webhookID: id,
                        projectID: project,
                        url: "https://example.com/\(id)",
                        sealedSecret: [9, 8, 7],
                        description: id,
                        createdMilliseconds: 1
                    )
                )
            }
            try transaction.insertInstallationTombstone(
                InstallationTombstoneRecord(
                    projectID: project,
                    fid: "f9",
                    appID: "a",
                    deletedMilliseconds: 5,
                    cause: "admin"
                )
            )
            #expect(try transaction.queueInstallationDeliveries(projectID: project, fid: "f9", now: 5) == 2)
        }
        #expect(try store.read { try $0.hasDueInstallationDelivery(now: 5) })
        let first = try store.write {
            try $0.claimInstallationDeliveries(owner: "n1", now: 5, leaseUntil: 100, limit: 1)
        }
        let second = try store.write {
            try $0.claimInstallationDeliveries(owner: "n2", now: 5, leaseUntil: 100, limit: 5)
        }
        #expect(first.count == 1 && second.count == 1 && first[0].webhookID != second[0].webhookID)
        #expect(first[0].sealedSecret == [9, 8, 7] && first[0].tombstone.cause == "admin")
        #expect(
            try store.write { try $0.claimInstallationDeliveries(owner: "n3", now: 50, leaseUntil: 100, limit: 5) }
                .isEmpty
        )
        let recorded = try store.write { transaction in
            try transaction.recordInstallationDeliveryAttempt(
                webhookID: first[0].webhookID,
                fid: "f9",
                owner: "n1",
                state: .delivered,
                status: 204,
                error: nil,
                at: 60,
                nextAttempt: 60
            )
        }
        #expect(recorded)
        #expect(try store.write { try $0.releaseInstallationDeliveries(owner: "n2", now: 70) } == 1)
        let deliveries = try store.read { try $0.installationDeliveries(projectID: project, fid: "f9") }
        #expect(deliveries.map(\.state).sorted { $0.rawValue < $1.rawValue } == [.delivered, .pending])
        #expect(deliveries.first { $0.state == .delivered }?.lastStatus == 204)
        let page = try store.read {
            try $0.installationDeliveries(projectID: project, state: .pending, after: nil, limit: 10)
        }
        #expect(page.count == 1 && page[0].nextAttemptMilliseconds == 70 && page[0].leaseOwner == nil)
        #expect(try store.write { try $0.deleteInstallationWebhook(projectID: project, id: "w1") })
        #expect(try store.read { try $0.installationWebhooks(projectID: project) }.map(\.webhookID) == ["w2"])
    }

    private func message(_ index: Int, at time: Int64) -> OutboxRecord {
        OutboxRecord(
            id: "m\(1000 + index)",
            projectID: project,
            kind: "TEST",
            language: "en",
            sender: "hearth@example.com",
            recipient: "user\(index)@example.com",
            subject: "Subject \(index)",
            template: OutboxRecord.Template(key: [UInt8](repeating: 7, count: 32), source: "Hello %NAME%"),
            sealedValues: [1, 2, 3, UInt8(index)],
            messageID: "<m\(index)@example.com>",
            action: OutboxRecord.Action(
                requestType: "PASSWORD_RESET",
                email: "user\(index)@example.com",
                oobCode: nil,
                oobLink: nil,
                sealed: [4, 5, UInt8(index)]
            ),
            createdAt: time,
            expiresAt: time + 1_000
        )
    }

    @Test(arguments: StoreKind.allCases)
    func outboxMessagesAreClaimedOnceSentPurgedAndDeleted(kind: StoreKind) throws {
        let fixture = try fixture(kind)
        let store = fixture.store
        for index in 0..<40 {
            try store.write { try $0.insertOutboxMessage(message(index, at: 100 + Int64(index))) }
        }
        let stored = try #require(try store.read { try $0.outboxMessage(projectID: project, id: "m1003") })
        #expect(stored.template?.source == "Hello %NAME%" && stored.sealedValues == [1, 2, 3, 3])
        #expect(stored.action?.sealed == [4, 5, 3])
        // Eight workers claim at once: every message is taken exactly once.
        let claims = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            while true {
                let batch =
                    (try? store.write {
                        try $0.claimOutboxMessages(now: 200, claimedUntil: 300, worker: "w\(worker)", limit: 3)
                    }) ?? []
                if batch.isEmpty { break }
                #expect(batch.count <= 3, "a claim takes at most its limit")
                claims.withLock { $0 += batch.map(\.id) }
            }
        }
        let claimed = claims.withLock { $0 }
        #expect(claimed.count == 40 && Set(claimed).count == 40)
        let sample = try #require(try store.read { try $0.outboxMessage(projectID: project, id: "m1000") })
        #expect(sample.state == .sending && sample.attempts == 1)
        try store.write { transaction in
            try transaction.markOutboxMessagesSent(
                (0..<33).map { "m\(1000 + $0)" },
                of: project,
                transport: "log",
                at: 250
            )
            let holder = try #require(try transaction.outboxMessage(projectID: project, id: "m1035")?.claimedBy)
            try transaction.rescheduleOutboxMessage(
                OutboxRecord.Key(projectID: project, id: "m1035"),
                worker: holder,
                nextAttemptAt: 260,
                error: "refused"
            )
        }
        #expect(try store.read { try $0.outboxMessages(projectID: project, state: .sent, limit: 100) }.count == 33)
        // Past their deadline: the rescheduled message and the six still held by their claims.
        let expired = try store.write { try $0.expireOutboxMessages(now: 2_000, createdBefore: 0) }
        #expect(expired == 7)
        let failed = try #require(try store.read { try $0.outboxMessage(projectID: project, id: "m1035") })
        #expect(failed.lastError == "not delivered before its deadline (last error: refused)")
        // The sent ones' sealed values and their bodies' rows (the sealed actions): 33 each.
        #expect(try store.write { try $0.purgeOutboxBodies(finishedBefore: 300, keepingProject: nil) } == 66)
        #expect(try store.read { try $0.outboxMessage(projectID: project, id: "m1001") }?.sealedValues == nil)
        #expect(try store.write { try $0.deleteOutboxMessages(finishedBefore: 300) } == 33)
        #expect(try store.read { try $0.outboxMessages(projectID: project, limit: 100) }.count == 7)
    }

    @Test(arguments: StoreKind.allCases)
    func rateCountersAddUpStopAtTheirLimitAndExpire(kind: StoreKind) throws {
        let fixture = try fixture(kind)
        let store = fixture.store
        let totals = try store.write { transaction in
            _ = try transaction.countHits([("a", 60, 120), ("b", 60, 120)])
            return try transaction.countHits([("a", 60, 120), ("b", 60, 120)], by: 3)
        }
        #expect(totals == [4, 4])
        let counted = try store.write { transaction in
            try (0..<5).map { _ in try transaction.addHit(("c", 60, 120), below: 3) }
        }
        #expect(counted == [true, true, true, false, false])
        try store.write { try $0.removeHit(("c", 60, 120)) }
        #expect(try store.write { try $0.addHit(("c", 60, 120), below: 3) })
        try store.write { _ = try $0.countHits([("a", 120, 180)]) }
        #expect(try store.read { try $0.hits(bucket: "a", since: 0) } == 5)
        let (hits, latest) = try store.read { try $0.hitsAndLatestWindow(bucket: "a", since: 0) }
        #expect(hits == 5 && latest == 120)
        #expect(try store.read { try $0.hitsAndLatestWindow(bucket: "none", since: 0) } == (0, nil))
        #expect(try store.write { try $0.deleteExpiredRateCounters(now: 150) } == 3)
        try store.write { try $0.resetHits(bucket: "a") }
        #expect(try store.read { try $0.hits(bucket: "a", since: 0) } == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func signingKeysHaveOneActiveKeyPerPurposeAndStayPublishedAfterRetiring(kind: StoreKind) throws {
        let fixture = try fixture(kind)
        let store = fixture.store
        @Sendable func key(_ id: String, at time: Int64) -> SigningKeyRecord {
            SigningKeyRecord(
                keyID: id,
                projectID: project,
                purpose: "installations",
                algorithm: "ES256",
                publicJWK: "{}",
                sealedPrivateKey: [0, 0, 1],
                createdAt: time
            )
        }
        #expect(try store.read { try $0.holdsSigningKeys() } == false)
        try store.write { try $0.insertSigningKey(key("k1", at: 1)) }
        #expect(try store.read { try $0.holdsSigningKeys() })
        #expect {
            try store.write { try $0.insertSigningKey(key("k2", at: 2)) }
        } throws: { error in
            (error as? StoreError)?.kind == .uniqueViolation
        }
        try store.write { transaction in
            #expect(
                try transaction.retireSigningKey(projectID: project, purpose: "installations", at: 5, publishUntil: 50)
                    == 1
            )
            try transaction.insertSigningKey(key("k2", at: 5))
        }
        #expect(try store.read { try $0.activeSigningKey(projectID: project, purpose: "installations") }?.keyID == "k2")
        #expect(try store.read { try $0.publishedSigningKeys(now: 10) }.map(\.keyID) == ["k1", "k2"])
        #expect(try store.write { try $0.deleteExpiredSigningKeys(now: 50) } == 1)
        #expect(try store.read { try $0.publishedSigningKeys(now: 10) }.map(\.keyID) == ["k2"])
        #expect(try store.read { try $0.holdsSigningKeys() })
    }

    @Test(arguments: StoreKind.allCases)
    func adminCredentialsAreRevokedOnceAndGoWithTheirProject(kind: StoreKind) throws {
        let fixture = try fixture(kind)
        let store = fixture.store
        try store.write { transaction in
            try transaction.insertAdminCredential(
                AdminCredentialRecord(
                    credentialID: "c1",
                    projectID: project,
                    label: "ci",
                    secretHash: [1, 2],
                    createdAt: 1
                )
            )
            try transaction.touchAdminCredential(id: "c1", at: 3)
        }
        #expect(try store.write { try $0.revokeAdminCredential(id: "c1", at: 4) })
        #expect(try store.write { try $0.revokeAdminCredential(id: "c1", at: 5) } == false)
        let stored = try store.read { try $0.adminCredential(id: "c1") }
        #expect(stored?.lastUsedAt == 3 && stored?.revokedAt == 4 && stored?.secretHash == [1, 2])
        let saved = try store.write {
            try $0.saveProject(id: project, number: "100000000000", document: "{\"a\":1}", at: 9)
        }
        #expect(saved.revision == 2)
        #expect(try store.write { try $0.deleteProject(id: project) })
        #expect(try store.read { try $0.adminCredentials(projectID: project) }.isEmpty)
        #expect(try store.read { try $0.projects() }.isEmpty)
    }
}
