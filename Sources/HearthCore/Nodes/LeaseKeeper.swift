public import HearthBase
public import HearthStore
import Synchronization

/// One node's claim on a lease: the right to do work that only one node at a time should do,
/// when several share a database (the inactivity sweeper, purges, expiry clean-up).
///
/// The lease is a row of `leases` with a holder and an expiry. `renew()` takes it when it is
/// free or lapsed and extends it while this node holds it; the caller runs it on its own
/// thread, again after as long as `renew()` answers (a third of the lease while held, so two
/// renewals can fail before it lapses). A node that dies stops renewing, and another takes
/// the lease once it lapses: no later than one lease duration after the death, since a node
/// refused the lease comes back at the holder's expiry. A node shutting down cleanly
/// releases it, and the others hear of that at once (on PostgreSQL) and take it.
///
/// Time is the real wall clock of each node, never the application's clock, which tests move
/// (`--test-clock`): nodes with different offsets would each see the other's lease lapsed.
/// Nodes' clocks are assumed to agree to well within a lease (NTP keeps them within
/// milliseconds); a node whose clock runs ahead by more takes a lease early. That, and a
/// holder paused past its expiry (a stopped process, a long garbage-free stall), can make two
/// nodes work at once for a moment, so the work a lease guards must stay correct when
/// repeated or overlapped — it is deletion of what is already due, which is.
///
/// Whether this node holds the lease is known locally (`isHeld`, no query): held until the
/// last successful renewal's start plus the lease duration. Counting from the start, not from
/// when the store answered, means a slow renewal never makes the node believe in more time
/// than the row gives it.
public final class LeaseKeeper: Sendable {
    /// The lease's row name.
    public let name: String
    /// This node as the lease's holder (`NodeName`): written in the row and in log lines.
    public let holder: String
    public let durationMilliseconds: Int64
    private let store: any Store
    private let clock: any Clock
    private let log: Log
    private let state = Mutex(State())

    private struct State {
        /// Until when this node may act as the holder (`Int64.min`: not held).
        var heldUntil = Int64.min
        /// Whether the log says this node holds the lease (so taking and losing are logged once).
        var announced = false
        var whenTaken: [@Sendable () -> Void] = []
    }

    /// - Parameters:
    ///   - clock: real time (`SystemClock`) in a node; a manual clock in tests.
    public init(
        name: String,
        store: any Store,
        log: Log,
        durationMilliseconds: Int64 = 30_000,
        clock: any Clock = SystemClock(),
        holder: String = NodeName.make()
    ) {
        precondition(durationMilliseconds >= 3, "a lease must last long enough to be renewed a third of the way")
        self.name = name
        self.store = store
        self.log = log
        self.durationMilliseconds = durationMilliseconds
        self.clock = clock
        self.holder = holder
    }

    /// How often a held lease is renewed: a third of its duration.
    public var renewalIntervalMilliseconds: Int64 { durationMilliseconds / 3 }

    /// Whether this node holds the lease now: ask before each run of the guarded work, and
    /// between its steps.
    public var isHeld: Bool { clock.nowMilliseconds() < state.withLock { $0.heldUntil } }

    /// Until when this node holds the lease; `nil` when it does not.
    public var heldUntilMilliseconds: Int64? {
        let until = state.withLock { $0.heldUntil }
        return clock.nowMilliseconds() < until ? until : nil
    }

    /// Calls `hook` each time this node takes the lease (not on renewals), so guarded workers
    /// waiting out their interval start at once.
    public func whenTaken(_ hook: @escaping @Sendable () -> Void) {
        state.withLock { $0.whenTaken.append(hook) }
    }

    /// Takes or renews the lease, once; answers how many milliseconds until the next attempt
    /// is due: a third of the lease while held, else when the other holder's lease lapses
    /// (never later than a third of the lease, so a release is noticed even unannounced).
    @discardableResult
    public func renew() -> Int64 {
        let (name, holder) = (self.name, self.holder)
        let started = clock.nowMilliseconds()
        let expiresAt = started + durationMilliseconds
        let otherHolder: LeaseRecord?
        do {
            otherHolder = try store.write { transaction -> LeaseRecord? in
                if try transaction.takeLease(name, holder: holder, until: expiresAt, now: started) { return nil }
                return try transaction.lease(name)
                    ?? LeaseRecord(name: name, holder: "(released meanwhile)", expiresAt: started)
            }
        } catch {
            log.warning(
                "cannot renew the lease \(name)",
                ["lease": .string(name), "error": .string(String(describing: error))]
            )
            noteLapseIfDue()
            return renewalIntervalMilliseconds
        }
        guard let otherHolder else {
            taken(until: expiresAt, renewalStarted: started)
            return renewalIntervalMilliseconds
        }
        let wasAnnounced = forget()
        if wasAnnounced {
            log.info(
                "lost the lease \(name) to another node",
                ["lease": .string(name), "holder": .string(holder), "newHolder": .string(otherHolder.holder)]
            )
        }
        let untilLapse = otherHolder.expiresAt - clock.nowMilliseconds()
        return min(renewalIntervalMilliseconds, max(1, untilLapse))
    }

    /// Gives the lease up (at shutdown, once the guarded work has stopped), so another node
    /// takes it now instead of at its expiry.
    public func release() {
        let (name, holder) = (self.name, self.holder)
        let wasAnnounced = forget()
        do {
            // Even when this node believes it lost the lease: a row it still holds goes too.
            try store.write { transaction in
                if try transaction.releaseLease(name, holder: holder) { try transaction.announce(.leases) }
            }
        } catch {
            log.warning(
                "cannot release the lease \(name); it lapses on its own",
                ["lease": .string(name), "error": .string(String(describing: error))]
            )
        }
        if wasAnnounced {
            log.info("released the lease \(name)", ["lease": .string(name), "holder": .string(holder)])
        }
    }

    private func taken(until expiresAt: Int64, renewalStarted started: Int64) {
        let newlyTaken = state.withLock { state -> [@Sendable () -> Void]? in
            // Newly taken also when this node's own row had lapsed meanwhile: the guarded work
            // stopped then and starts again now.
            let newly = !state.announced || state.heldUntil <= started
            state.heldUntil = expiresAt
            state.announced = true
            return newly ? state.whenTaken : nil
        }
        guard let hooks = newlyTaken else { return }
        log.info(
            "took the lease \(name)",
            ["lease": .string(name), "holder": .string(holder), "durationMs": .int(durationMilliseconds)]
        )
        for hook in hooks { hook() }
    }

    /// Stops holding the lease here; answers whether the log said this node held it.
    private func forget() -> Bool {
        state.withLock { state in
            defer { (state.heldUntil, state.announced) = (.min, false) }
            return state.announced
        }
    }

    /// After a failed renewal: once the lease has lapsed here, says so (once).
    private func noteLapseIfDue() {
        let now = clock.nowMilliseconds()
        let lapsed = state.withLock { state in
            guard state.announced && state.heldUntil <= now else { return false }
            (state.heldUntil, state.announced) = (.min, false)
            return true
        }
        if lapsed {
            log.info(
                "lost the lease \(name): it lapsed while the database could not renew it",
                ["lease": .string(name), "holder": .string(holder)]
            )
        }
    }
}
