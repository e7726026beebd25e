import Foundation
import HearthCrypto
import HearthTestSupport
import Testing

/// The lease on singleton work between two `hearth serve` nodes on one PostgreSQL database:
/// only its holder sweeps, a holder killed hands the sweep over within the lease, and one
/// shut down cleanly hands it over at once.
@Suite(.enabled(if: TestDatabase.runsOnPostgreSQL, "nodes share a database on PostgreSQL"))
struct SweeperLeaseTests {
    private static let took = "took the lease singleton-work"

    /// Two nodes on one database with the cluster's one master key, the one holding the lease
    /// first.
    private func twoNodes(_ arguments: [String]) throws -> (holder: HearthServerProcess, other: HearthServerProcess) {
        let database = try TestDatabase()
        let key = ["HEARTH_MASTER_KEY": Base64URL.encode(SecureRandom.bytes(count: 32))]
        let a = try HearthServerProcess(arguments: arguments, environment: key, database: database)
        let b = try HearthServerProcess(arguments: arguments, environment: key, database: database)
        let held = { (node: HearthServerProcess) in node.output.contains { $0.contains(Self.took) } }
        guard eventually(timeout: 10, { held(a) || held(b) }) else {
            throw TestHTTPError("neither node took the lease; A:\n" + a.output.joined(separator: "\n"))
        }
        #expect(!(held(a) && held(b)), "both nodes took the lease")
        return held(a) ? (a, b) : (b, a)
    }

    @Test("kill -9 of the node holding the sweeper lease hands the sweep to the other within its lease time")
    func aKilledHolderHandsTheSweepOverWithinTheLease() throws {
        let leaseMilliseconds = 2_000
        let sweepMilliseconds = 200
        let (holder, other) = try twoNodes([
            "--test-clock", "--installation-sweep-interval-ms", String(sweepMilliseconds),
            "--lease-seconds", String(leaseMilliseconds / 1_000),
        ])
        let idle = try holder.client().register(app: Seed.androidApp)
        let state = { try other.client().admin("GET", "installations/\(idle.fid)").json["state"] as? String }

        // By the other node's clock the installation has been unseen for 271 days (its
        // project forgets installations after 270); by the holder's, not at all. The other
        // node's sweeper, which would delete it, does not run: the lease is not its. (A wait
        // for something not to happen: five sweep intervals, half the lease.)
        try other.client().advanceClock(days: 271)
        usleep(useconds_t(5 * sweepMilliseconds * 1_000))
        #expect(try state() == "ACTIVE")

        let clock = ContinuousClock()
        let killed = clock.now
        holder.kill()
        let swept = try eventually(timeout: 10) { try state() == "DELETED" }
        let handover = clock.now - killed
        print("sweeper lease: killed holder's sweep done by the other node \(handover) after kill -9 (lease 2 s)")
        #expect(swept)
        // The lease lapses at most 2 s after the kill (less the time since its last renewal);
        // the other node takes it then and sweeps at once. A sweep interval, and 300 ms for the
        // 50 ms polling here and a loaded machine, on top.
        #expect(
            handover < .milliseconds(leaseMilliseconds + sweepMilliseconds + 300),
            "the sweep moved \(handover) after the kill; the lease is \(leaseMilliseconds) ms"
        )
        #expect(try other.client().admin("GET", "installations/\(idle.fid)").json["cause"] as? String == "inactivity")
        // Its log is written in batches, so the line may follow the sweep it announced.
        #expect(other.waitForOutput(Self.took, timeout: 5))
    }

    @Test("a holder shut down cleanly releases the lease and the other node takes it at once, not after 30 s")
    func aCleanShutdownHandsTheLeaseOverAtOnce() throws {
        let (holder, other) = try twoNodes([])
        let clock = ContinuousClock()
        let stopping = clock.now
        #expect(holder.stop() == 0)
        #expect(holder.output.contains { $0.contains("released the lease singleton-work") })
        #expect(other.waitForOutput(Self.took, timeout: 40))
        let handover = clock.now - stopping
        print("sweeper lease: taken by the other node \(handover) after SIGTERM to the holder (lease 30 s)")
        #expect(handover < .seconds(3))
    }
}
