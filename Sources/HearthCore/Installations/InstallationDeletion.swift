public import HearthStore

/// Who or what deleted an installation.
public enum DeletionCause: String, Sendable, CaseIterable {
    /// The app deleted its own installation (`DELETE .../installations/{fid}`).
    case client
    /// A server deleted it (`DELETE /v1/project/{p}/instanceId/{fid}`).
    case admin
    /// The sweeper deleted it after too long unseen.
    case inactivity
}

/// The one way an installation is deleted, shared by client deletion, server deletion and the
/// sweeper. In the caller's write transaction it removes the installation, writes its
/// tombstone and queues one delivery of the event per subscribed service — all committed
/// together or not at all.
public enum InstallationDeletion {
    public enum Outcome: Sendable, Equatable {
        case deleted(InstallationTombstoneRecord)
        /// Deleted before; the earlier tombstone.
        case alreadyDeleted(InstallationTombstoneRecord)
        /// Never existed (or, with `seenBefore`, was seen since and is kept).
        case notFound
    }

    /// Deletes `fid` of the project at `now` (milliseconds). With `seenBefore`, only if it has
    /// not been seen since then.
    public static func delete(
        projectID: String,
        fid: String,
        cause: DeletionCause,
        now: Int64,
        seenBefore: Int64? = nil,
        in transaction: WriteTransaction
    ) throws(StoreError) -> Outcome {
        guard let appID = try transaction.removeInstallation(projectID: projectID, fid: fid, seenBefore: seenBefore)
        else {
            if let tombstone = try transaction.installationTombstone(projectID: projectID, fid: fid) {
                return .alreadyDeleted(tombstone)
            }
            return .notFound
        }
        let tombstone = InstallationTombstoneRecord(
            projectID: projectID,
            fid: fid,
            appID: appID,
            deletedMilliseconds: now,
            cause: cause.rawValue
        )
        try transaction.insertInstallationTombstone(tombstone)
        try transaction.queueInstallationDeliveries(projectID: projectID, fid: fid, now: now)
        return .deleted(tombstone)
    }
}
