public import HearthBase
public import HearthStore

/// Deletes installations unseen for longer than their project's inactivity setting (270
/// days by default), through the same deletion core as every other deletion (cause
/// `inactivity`). Candidates are found on the read pool and deleted in small batches, one
/// write transaction each, so requests' writes interleave with a large sweep instead of
/// waiting behind it.
///
/// One node at a time sweeps (it holds the singleton lease), but two may overlap for a moment
/// when a lease changes hands: each deletion re-checks, in its own write, that the
/// installation is still there and still unseen, so a node that comes second finds nothing
/// to delete and sends no second deletion event.
public final class InactivitySweeper: Sendable {
    private let store: any Store
    private let clock: any Clock
    private let projects: ProjectDirectory
    private let batchSize: Int
    private let maximumBatchesPerRun: Int
    private let onDeletion: @Sendable () -> Void

    public init(
        store: any Store,
        clock: any Clock,
        projects: ProjectDirectory,
        batchSize: Int = 200,
        maximumBatchesPerRun: Int = 100,
        onDeletion: @escaping @Sendable () -> Void = {}
    ) {
        precondition(batchSize > 0 && maximumBatchesPerRun > 0)
        self.store = store
        self.clock = clock
        self.projects = projects
        self.batchSize = batchSize
        self.maximumBatchesPerRun = maximumBatchesPerRun
        self.onDeletion = onDeletion
    }

    /// What one run did.
    public struct Report: Sendable, Equatable {
        public var deleted = 0
        /// The run stopped at its batch limit with inactive installations left.
        public var moreRemain = false
    }

    /// Sweeps every project once, up to the run's batch limit, for as long as `mayContinue`
    /// says so (asked before each batch: the node still holds the lease).
    public func sweep(while mayContinue: () -> Bool = { true }) throws -> Report {
        var report = Report()
        var batches = 0
        for project in projects.all {
            let projectID = project.id
            let cutoff = clock.nowMilliseconds() - project.settings.installationInactivitySeconds * 1_000
            while true {
                guard batches < maximumBatchesPerRun else {
                    report.moreRemain = true
                    return report
                }
                guard mayContinue() else { return report }
                batches += 1
                let limit = batchSize
                let candidates = try store.read {
                    try $0.installationsSeenBefore(projectID: projectID, cutoffMilliseconds: cutoff, limit: limit)
                }
                if candidates.isEmpty { break }
                let now = clock.nowMilliseconds()
                let deleted = try store.write { transaction -> Int in
                    var deleted = 0
                    for fid in candidates {
                        let outcome = try InstallationDeletion.delete(
                            projectID: projectID,
                            fid: fid,
                            cause: .inactivity,
                            now: now,
                            seenBefore: cutoff,
                            in: transaction
                        )
                        if case .deleted = outcome { deleted += 1 }
                    }
                    return deleted
                }
                report.deleted += deleted
                if deleted > 0 { onDeletion() }
                if candidates.count < limit { break }
            }
        }
        return report
    }
}
