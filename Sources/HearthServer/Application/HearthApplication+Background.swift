import HearthBase
import HearthCore
import HearthMail
import HearthStore
import Synchronization

extension HearthApplication {
    /// Starts the node's background work. Queue workers (mail and webhook senders) run on
    /// every node, their claims keeping two from sending one message. Singleton work — the
    /// inactivity sweeper and maintenance — runs on the one node holding `singletonLease`,
    /// and starts at once when this node takes it.
    ///
    /// One lease for all singleton work rather than one per job: the jobs are small, so
    /// spreading them over nodes would gain nothing, and one lease is one renewal per node
    /// and one holder to find in the log.
    func startBackgroundWork() {
        let lease = singletonLease
        let maintenance = PeriodicWorker(named: "maintenance", intervalMilliseconds: 60_000) { [self] in
            if lease.isHeld { runMaintenance() }
        }
        let installationWorkers = installations.startWorkers(singletonLease: lease)
        lease.whenTaken { [installations] in
            maintenance.wake()
            installations.wakeSweeper()
        }
        // Started last, so the workers it wakes exist; stopped last, before the release.
        let renewal = PeriodicWorker(named: "lease") { Int(lease.renew()) }
        store.watch(.leases) { renewal.wake() }
        background.withLock { $0 += [maintenance] + installationWorkers + [renewal] }
        mailer.start()
        projects.startReloading()
        keys.startReloading()
    }

    /// Stops every background worker, waiting for runs in progress to end, then releases the
    /// singleton lease so another node takes it over at once.
    func stopBackgroundWork() {
        let workers = background.withLock { workers in
            defer { workers.removeAll() }
            return workers
        }
        for worker in workers { worker.stop() }
        if !workers.isEmpty { singletonLease.release() }
        mailer.stop()
        projects.stopReloading()
        keys.stopReloading()
    }

    /// Clean-up that keeps tables small: expired rate windows, retired keys past their
    /// publication window, refresh tokens revoked long ago, old action codes, and finished
    /// mail. Run by one node at a time; should two overlap when the lease changes hands, each
    /// deletes only what is due, and the second finds it gone.
    func runMaintenance() {
        let now = clock.nowSeconds()
        do {
            try store.write { transaction in
                try transaction.deleteExpiredRateCounters(now: now)
                try transaction.deleteExpiredSigningKeys(now: now)
                let forgetRevokedBefore = (now - AccountService.revokedTokenMemorySeconds) * 1_000
                try transaction.deleteRevokedRefreshTokens(before: forgetRevokedBefore)
                // Expired codes are kept a week, so a late click still hears "expired".
                let forgetCodesBefore = (now - 7 * 86_400) * 1_000
                try transaction.deleteExpiredActionCodes(
                    before: forgetCodesBefore,
                    keysBelow: ActionCode.keyBound(expiringBefore: forgetCodesBefore)
                )
            }
        } catch {
            log.warning("maintenance failed", ["error": .string(String(describing: error))])
        }
        mailer.removeFinishedMessages()
    }
}
