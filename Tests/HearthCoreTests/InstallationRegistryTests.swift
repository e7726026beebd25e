import HearthBase
import HearthCore
import HearthCrypto
import HearthStore
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The registry, deletion core, sweeper and webhook sender over a real SQLite store, with a
/// manual clock and a recording stand-in for the network (the one thing outside the unit).
@Suite struct InstallationRegistryTests {
    private final class Fixture {
        let temporary: TemporaryStore
        let clock = ManualClock(milliseconds: 1_800_000_000_000)
        let projects: ProjectDirectory
        let keys: KeyRing
        let registry: InstallationRegistry
        let webhooks: InstallationWebhooks
        let project = DevelopmentSeed.project
        let masterKey = MasterKey.generate()

        init() throws {
            temporary = try TemporaryStore()
            projects = try ProjectDirectory(store: temporary.store, clock: clock)
            try projects.save(DevelopmentSeed.project)
            keys = KeyRing(store: temporary.store, clock: clock, masterKey: masterKey)
            registry = InstallationRegistry(store: temporary.store, clock: clock, keys: keys)
            webhooks = InstallationWebhooks(store: temporary.store, clock: clock, masterKey: masterKey)
        }

        var store: SQLiteStore { temporary.store }

        /// Registers a new installation of `appID` with a server-made FID.
        func register(_ appID: String) throws -> InstallationRegistry.Registration {
            try registry.register(project: project, requestedFID: nil, appID: appID, sdkVersion: "")
        }

        func delivery(_ transport: RecordingTransport, node: String, retryBase: Int64 = 1_000) -> DeletionEventDelivery
        {
            DeletionEventDelivery(
                store: store,
                clock: clock,
                projects: projects,
                webhooks: webhooks,
                transport: transport,
                settings: .init(retry: RetrySchedule(baseMilliseconds: retryBase, maximumMilliseconds: 60_000)),
                log: Log(minimumLevel: .error),
                nodeID: node
            )
        }
    }

    /// Records every POST and answers with `status(callNumber)`.
    final class RecordingTransport: WebhookTransport {
        struct Call: Sendable {
            let url: String
            let headers: [String: String]
            let body: [UInt8]
        }
        let calls = Mutex<[Call]>([])
        let status: @Sendable (Int) -> Int
        let pauseMicroseconds: UInt32

        init(pauseMicroseconds: UInt32 = 0, status: @escaping @Sendable (Int) -> Int = { _ in 200 }) {
            self.status = status
            self.pauseMicroseconds = pauseMicroseconds
        }

        func post(url: String, headers: [(name: String, value: String)], body: [UInt8], timeoutMilliseconds: Int) throws
            -> Int
        {
            if pauseMicroseconds > 0 { usleep(pauseMicroseconds) }
            let number = calls.withLock { calls in
                calls.append(
                    Call(
                        url: url,
                        headers: Dictionary(uniqueKeysWithValues: headers.map { ($0.name, $0.value) }),
                        body: body
                    )
                )
                return calls.count
            }
            return status(number)
        }
    }

    @Test func aNewWellFormedFIDIsKeptAndAnythingElseIsReplaced() throws {
        let fixture = try Fixture()
        let requested = FID.generate()
        let kept = try fixture.registry.register(
            project: fixture.project,
            requestedFID: requested,
            appID: DevelopmentSeed.webAppID,
            sdkVersion: "w:1"
        )
        #expect(kept.fid == requested)
        let replaced = try fixture.registry.register(
            project: fixture.project,
            requestedFID: "cGVzdC1maWQtMTIzNDU2Nzg=",
            appID: DevelopmentSeed.webAppID,
            sdkVersion: "w:1"
        )
        #expect(replaced.fid != "cGVzdC1maWQtMTIzNDU2Nzg=")
        #expect(FID.isWellFormed(replaced.fid))
    }

    @Test func registeringAgainForTheSameAppRotatesTheRefreshTokenAndAnotherAppGetsANewFID() throws {
        let fixture = try Fixture()
        let first = try fixture.register(DevelopmentSeed.webAppID)
        let again = try fixture.registry.register(
            project: fixture.project,
            requestedFID: first.fid,
            appID: DevelopmentSeed.webAppID,
            sdkVersion: ""
        )
        #expect(again.fid == first.fid)
        #expect(throws: InstallationError.invalidRefreshToken) {
            try fixture.registry.generateToken(
                project: fixture.project,
                fid: first.fid,
                refreshToken: first.refreshToken,
                appID: nil,
                sdkVersion: nil
            )
        }
        _ = try fixture.registry.generateToken(
            project: fixture.project,
            fid: first.fid,
            refreshToken: again.refreshToken,
            appID: nil,
            sdkVersion: nil
        )
        let other = try fixture.registry.register(
            project: fixture.project,
            requestedFID: first.fid,
            appID: DevelopmentSeed.iosAppID,
            sdkVersion: ""
        )
        #expect(other.fid != first.fid)
        #expect(
            try fixture.registry.installation(project: fixture.project, fid: first.fid)?.appID
                == DevelopmentSeed.webAppID
        )
    }

    @Test func anInstallationRegisteredMoreThanTenMinutesAgoIsNotHandedToWhoeverNamesIt() throws {
        let fixture = try Fixture()
        let first = try fixture.register(DevelopmentSeed.webAppID)
        fixture.clock.advance(milliseconds: InstallationRegistry.reRegistrationWindowMilliseconds)
        let claim = try fixture.registry.register(
            project: fixture.project,
            requestedFID: first.fid,
            appID: DevelopmentSeed.webAppID,
            sdkVersion: ""
        )
        #expect(claim.fid != first.fid && FID.isWellFormed(claim.fid))
        // The owner's refresh token still works; the claimant's names only its own FID.
        _ = try fixture.registry.generateToken(
            project: fixture.project,
            fid: first.fid,
            refreshToken: first.refreshToken,
            appID: nil,
            sdkVersion: nil
        )
        #expect(throws: InstallationError.invalidRefreshToken) {
            try fixture.registry.generateToken(
                project: fixture.project,
                fid: first.fid,
                refreshToken: claim.refreshToken,
                appID: nil,
                sdkVersion: nil
            )
        }
    }

    @Test func aDeletionWritesOneTombstoneAndOneDeliveryPerSubscriberAndTheFIDIsNeverReused() throws {
        let fixture = try Fixture()
        for index in 0..<3 {
            _ = try fixture.webhooks.add(
                projectID: fixture.project.id,
                url: "http://127.0.0.1:1/\(index)",
                secret: nil,
                description: ""
            )
        }
        let registration = try fixture.register(DevelopmentSeed.androidAppID)
        try fixture.registry.delete(
            project: fixture.project,
            fid: registration.fid,
            refreshToken: registration.refreshToken
        )
        let tombstone = try #require(try fixture.registry.tombstone(project: fixture.project, fid: registration.fid))
        #expect(tombstone.cause == "client")
        #expect(tombstone.appID == DevelopmentSeed.androidAppID)
        let deliveries = try fixture.store.read {
            try $0.installationDeliveries(projectID: fixture.project.id, fid: registration.fid)
        }
        #expect(deliveries.count == 3)
        #expect(deliveries.allSatisfy { $0.state == .pending && $0.attempts == 0 })

        #expect(throws: InstallationError.alreadyDeleted) {
            try fixture.registry.deleteAsAdmin(project: fixture.project, fid: registration.fid)
        }
        let reused = try fixture.registry.register(
            project: fixture.project,
            requestedFID: registration.fid,
            appID: DevelopmentSeed.androidAppID,
            sdkVersion: ""
        )
        #expect(reused.fid != registration.fid)
    }

    @Test func aWrongRefreshTokenDeletesNothing() throws {
        let fixture = try Fixture()
        let registration = try fixture.register(DevelopmentSeed.webAppID)
        #expect(throws: InstallationError.invalidRefreshToken) {
            try fixture.registry.delete(project: fixture.project, fid: registration.fid, refreshToken: "3_wrong")
        }
        #expect(try fixture.registry.installation(project: fixture.project, fid: registration.fid) != nil)
        #expect(try fixture.registry.tombstone(project: fixture.project, fid: registration.fid) == nil)
    }

    @Test func theSweeperDeletesOnlyInstallationsUnseenForTheInactivityWindow() throws {
        let fixture = try Fixture()
        let stale = try fixture.register(DevelopmentSeed.webAppID)
        let active = try fixture.register(DevelopmentSeed.webAppID)
        fixture.clock.advance(milliseconds: 200 * 86_400_000)
        _ = try fixture.registry.generateToken(
            project: fixture.project,
            fid: active.fid,
            refreshToken: active.refreshToken,
            appID: nil,
            sdkVersion: nil
        )
        fixture.clock.advance(milliseconds: 71 * 86_400_000)
        let sweeper = InactivitySweeper(
            store: fixture.store,
            clock: fixture.clock,
            projects: fixture.projects,
            batchSize: 1
        )
        // The token call's last-seen write is queued; a durable write behind it flushes it.
        try fixture.store.write { _ in }
        let report = try sweeper.sweep()
        #expect(report.deleted == 1)
        #expect(try fixture.registry.tombstone(project: fixture.project, fid: stale.fid)?.cause == "inactivity")
        #expect(try fixture.registry.installation(project: fixture.project, fid: active.fid) != nil)
    }

    @Test func aFailedDeliveryIsRetriedAfterTheBackOffAndThenRecordedAsDelivered() throws {
        let fixture = try Fixture()
        let (hook, secret) = try fixture.webhooks.add(
            projectID: fixture.project.id,
            url: "http://receiver/hook",
            secret: nil,
            description: ""
        )
        let registration = try fixture.register(DevelopmentSeed.webAppID)
        try fixture.registry.deleteAsAdmin(project: fixture.project, fid: registration.fid)

        let transport = RecordingTransport { call in call == 1 ? 500 : 204 }
        let sender = fixture.delivery(transport, node: "a", retryBase: 1_000)
        #expect(try sender.deliverDue() == 1)
        #expect(try sender.deliverDue() == 0)
        // The retry comes after the jittered back-off: not before half the base, by the base.
        fixture.clock.advance(milliseconds: 499)
        #expect(try sender.deliverDue() == 0)
        fixture.clock.advance(milliseconds: 501)
        #expect(try sender.deliverDue() == 1)

        let delivery = try #require(
            try fixture.store.read {
                try $0.installationDeliveries(projectID: fixture.project.id, fid: registration.fid)
            }.first
        )
        #expect(delivery.state == .delivered)
        #expect(delivery.attempts == 2)
        #expect(delivery.lastStatus == 204)
        let call = try #require(transport.calls.withLock { $0.last })
        #expect(call.headers["Hearth-Delivery-Id"] == "\(hook.webhookID):\(registration.fid)")
        let signature = try #require(call.headers["Hearth-Signature"])
        #expect(
            WebhookSignature.isValid(
                header: signature,
                secret: Array(secret.utf8),
                body: call.body,
                now: fixture.clock.nowSeconds()
            )
        )
        let event = try JSONValue.parse(call.body)
        #expect(event["fid"]?.stringValue == registration.fid)
        #expect(event["cause"]?.stringValue == "admin")
        #expect(event["projectNumber"]?.stringValue == DevelopmentSeed.projectNumber)
        #expect(event["appId"]?.stringValue == DevelopmentSeed.webAppID)
    }

    @Test func twoNodesSendingAtOnceNeverSendTheSameDelivery() throws {
        let fixture = try Fixture()
        _ = try fixture.webhooks.add(
            projectID: fixture.project.id,
            url: "http://receiver/a",
            secret: nil,
            description: ""
        )
        _ = try fixture.webhooks.add(
            projectID: fixture.project.id,
            url: "http://receiver/b",
            secret: nil,
            description: ""
        )
        for _ in 0..<40 {
            let registration = try fixture.register(DevelopmentSeed.webAppID)
            try fixture.registry.deleteAsAdmin(project: fixture.project, fid: registration.fid)
        }
        let first = RecordingTransport(pauseMicroseconds: 500)
        let second = RecordingTransport(pauseMicroseconds: 500)
        let senders = [fixture.delivery(first, node: "one"), fixture.delivery(second, node: "two")]
        let done = Atomic<Int>(0)
        for sender in senders {
            startBackgroundThread(named: "test-worker") {
                _ = try? sender.deliverDue()
                done.add(1, ordering: .sequentiallyConsistent)
            }
        }
        while done.load(ordering: .sequentiallyConsistent) < 2 { usleep(1_000) }
        let sent = (first.calls.withLock { $0 } + second.calls.withLock { $0 }).map {
            $0.headers["Hearth-Delivery-Id"] ?? ""
        }
        #expect(sent.count == 80)
        #expect(Set(sent).count == 80)
        #expect(!first.calls.withLock { $0 }.isEmpty)
        #expect(!second.calls.withLock { $0 }.isEmpty)
    }

    @Test func aTokenVerifiesUntilItsInstallationIsDeleted() throws {
        let fixture = try Fixture()
        let registration = try fixture.register(DevelopmentSeed.iosAppID)
        let verified = try fixture.registry.verify(token: registration.authToken.token, project: fixture.project)
        #expect(verified.fid == registration.fid)
        #expect(verified.appID == DevelopmentSeed.iosAppID)
        #expect(verified.expiresAt - (verified.issuedAt ?? 0) == 604_800)
        try fixture.registry.deleteAsAdmin(project: fixture.project, fid: registration.fid)
        #expect(throws: InstallationError.installationDeleted) {
            try fixture.registry.verify(token: registration.authToken.token, project: fixture.project)
        }
    }
}

extension InstallationRegistryTests {
    @Test func aSendingRunThatOutlastsItsTimeGivesBackWhatItDidNotSend() throws {
        let fixture = try Fixture()
        _ = try fixture.webhooks.add(
            projectID: fixture.project.id,
            url: "http://receiver/x",
            secret: nil,
            description: ""
        )
        for _ in 0..<3 {
            let registration = try fixture.register(DevelopmentSeed.webAppID)
            try fixture.registry.deleteAsAdmin(project: fixture.project, fid: registration.fid)
        }
        let clock = fixture.clock
        // Each POST takes six seconds of the run's five.
        let transport = RecordingTransport { _ in
            clock.advance(milliseconds: 6_000)
            return 200
        }
        let sender = DeletionEventDelivery(
            store: fixture.store,
            clock: clock,
            projects: fixture.projects,
            webhooks: fixture.webhooks,
            transport: transport,
            settings: .init(maximumRunMilliseconds: 5_000),
            log: Log(minimumLevel: .error),
            nodeID: "slow"
        )
        #expect(try sender.deliverDue() == 1)
        let pending = try fixture.store.read {
            try $0.installationDeliveries(projectID: fixture.project.id, state: .pending, after: nil, limit: 10)
        }
        #expect(pending.count == 2)
        #expect(pending.allSatisfy { $0.leaseOwner == nil && $0.nextAttemptMilliseconds <= clock.nowMilliseconds() })
        #expect(try sender.deliverDue() == 1)
        #expect(try sender.deliverDue() == 1)
        #expect(try sender.deliverDue() == 0)
    }
}
