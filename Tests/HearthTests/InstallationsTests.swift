import Foundation
import HearthTestSupport
import Synchronization
import Testing

@testable import Hearth

@Suite("Installations against a real hearth server")
struct InstallationsTests {
    @Test("Eight concurrent installationID calls make one registration and agree on the FID")
    func concurrentCallsRegisterOnce() async throws {
        let harness = try ClientHarness()
        let installations = Installations(app: harness.makeApp())
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { try await installations.installationID() } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(ids).count == 1)
        let listed = try harness.serverInstallations()
        #expect(listed.count == 1)
        #expect(listed.first?["fid"] as? String == ids.first)
        #expect(harness.transport.count(pathSuffix: "/installations") == 1)
        let fid = try #require(ids.first)
        #expect(InstallationID.isWellFormed(fid))
    }

    @Test("A server-side deletion makes the next authToken register a new FID and announce it once")
    func serverDeletionRotatesTheFID() async throws {
        let harness = try ClientHarness()
        let app = harness.makeApp()
        let installations = Installations(app: app)
        let first = try await installations.installationID()
        _ = try await installations.authToken()

        let notifications = NotificationCounter(appName: app.name)
        var changes = installations.installationIDChanges.makeAsyncIterator()
        let deleted = try harness.admin("DELETE", "/v1/project/\(Seed.projectID)/instanceId/\(first)")
        #expect(deleted.status == 200)

        // The next authToken() that needs Hearth (its token is within an hour of expiry)
        // finds the installation gone and registers a new one in the same call.
        let cached = try await installations.authToken()
        harness.time.advance(by: cached.expirationDate.timeIntervalSince(harness.time.now) - 30 * 60)
        let token = try await installations.authToken()
        let second = try await installations.installationID()
        #expect(second != first)
        #expect(await changes.next() == second)
        #expect(notifications.count == 1)
        #expect(try harness.serverInstallations().compactMap { $0["fid"] as? String } == [second])
        #expect(token.expirationDate > harness.time.now.addingTimeInterval(6 * 24 * 3600))
        _ = try await installations.authTokenForcingRefresh(true)
        #expect(notifications.count == 1, "a refresh of the new installation announces nothing")
    }

    @Test("A token with less than an hour left is refreshed; one with more is reused")
    func tokenRefreshedWithinAnHourOfExpiry() async throws {
        let harness = try ClientHarness()
        let installations = Installations(app: harness.makeApp())
        let first = try await installations.authToken()
        let generate = "authTokens:generate"

        harness.time.advance(by: first.expirationDate.timeIntervalSince(harness.time.now) - 2 * 3600)
        let reused = try await installations.authToken()
        #expect(reused.authToken == first.authToken)
        #expect(harness.transport.count(pathSuffix: generate) == 0)

        harness.time.advance(by: 61 * 60)
        let refreshed = try await installations.authToken()
        #expect(harness.transport.count(pathSuffix: generate) == 1)
        #expect(refreshed.authToken != first.authToken)
        #expect(refreshed.expirationDate > first.expirationDate)
    }

    @Test("A new Installations on the same storage reads the persisted installation")
    func persistedInstallationSurvivesARestart() async throws {
        let harness = try ClientHarness()
        let before = Installations(app: harness.makeApp(name: "restarted"))
        let fid = try await before.installationID()
        let token = try await before.authToken()

        let after = Installations(app: harness.makeApp(name: "restarted"))
        #expect(try await after.installationID() == fid)
        #expect(try await after.authToken().authToken == token.authToken)
        #expect(harness.transport.count(pathSuffix: "/installations") == 1)
        #expect(harness.transport.count(pathSuffix: "authTokens:generate") == 0)

        let files = try FileManager.default.contentsOfDirectory(atPath: harness.storageDirectory.path)
        let entry = try #require(files.first { $0.hasPrefix("installation.") })
        let attributes = try FileManager.default.attributesOfItem(
            atPath: harness.storageDirectory.appendingPathComponent(entry).path
        )
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("delete removes the installation at the server and here; the next call makes a new FID")
    func deleteThenNewFID() async throws {
        let harness = try ClientHarness()
        let installations = Installations(app: harness.makeApp())
        let first = try await installations.installationID()
        try await installations.delete()
        #expect(try harness.serverInstallations().isEmpty)
        let second = try await installations.installationID()
        #expect(second != first)
        #expect(try harness.serverInstallations().compactMap { $0["fid"] as? String } == [second])
    }
}

/// Counts `.InstallationIDDidChange` notifications for one app.
final class NotificationCounter: @unchecked Sendable {
    private let tally = Tally()
    private var observer: (any NSObjectProtocol)?

    init(appName: String) {
        let tally = tally
        observer = NotificationCenter.default.addObserver(
            forName: .InstallationIDDidChange,
            object: nil,
            queue: nil
        ) { notification in
            if notification.userInfo?[InstallationIDDidChangeAppNameKey] as? String == appName { tally.add() }
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    var count: Int { tally.value }
}

/// A count shared with a notification block.
final class Tally: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
