import HearthBase
import HearthStore
import Synchronization

extension HearthApplication {
    /// Starts the node's periodic maintenance.
    func startBackgroundWork() {
        let worker = PeriodicWorker(intervalMilliseconds: 60_000) { [self] in
            runMaintenance()
        }
        let installationWorkers = installations.startWorkers()
        background.withLock { $0 += [worker] + installationWorkers }
    }

    /// Stops every background worker, waiting for runs in progress to end.
    func stopBackgroundWork() {
        let workers = background.withLock { workers in
            defer { workers.removeAll() }
            return workers
        }
        for worker in workers { worker.stop() }
    }

    /// Clean-up that keeps tables small: expired rate windows and retired keys past their
    /// publication window.
    func runMaintenance() {
        let now = clock.nowSeconds()
        do {
            try store.write { transaction in
                try transaction.deleteExpiredRateCounters(now: now)
                try transaction.deleteExpiredSigningKeys(now: now)
            }
        } catch {
            log.warning("maintenance failed", ["error": .string(String(describing: error))])
        }
    }
}
