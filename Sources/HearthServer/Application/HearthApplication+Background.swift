import HearthBase
import HearthCore
import HearthMail
import HearthStore
import Synchronization

extension HearthApplication {
    /// Starts the node's periodic maintenance.
    func startBackgroundWork() {
        let worker = PeriodicWorker(named: "maintenance", intervalMilliseconds: 60_000) { [self] in
            runMaintenance()
        }
        let installationWorkers = installations.startWorkers()
        background.withLock { $0 += [worker] + installationWorkers }
        mailer.start()
        projects.startReloading()
    }

    /// Stops every background worker, waiting for runs in progress to end.
    func stopBackgroundWork() {
        let workers = background.withLock { workers in
            defer { workers.removeAll() }
            return workers
        }
        for worker in workers { worker.stop() }
        mailer.stop()
        projects.stopReloading()
    }

    /// Clean-up that keeps tables small: expired rate windows, retired keys past their
    /// publication window, and refresh tokens revoked long ago.
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
    }
}
