/// What is left of a deleted installation: enough to tell services what to forget, and to
/// make sure its FID is never handed out again.
public struct InstallationTombstoneRecord: Sendable, Equatable {
    public var projectID: String
    public var fid: String
    public var appID: String
    public var deletedMilliseconds: Int64
    /// `client`, `admin` or `inactivity`.
    public var cause: String

    public init(projectID: String, fid: String, appID: String, deletedMilliseconds: Int64, cause: String) {
        self.projectID = projectID
        self.fid = fid
        self.appID = appID
        self.deletedMilliseconds = deletedMilliseconds
        self.cause = cause
    }
}

private let tombstoneColumns = "project_id, fid, app_id, deleted_ms, cause"

private let selectTombstone = SQLStatement(
    "SELECT \(tombstoneColumns) FROM installation_tombstones WHERE project_id = ? AND fid = ?"
)

private let selectFirstTombstonesPage = SQLStatement(
    """
    SELECT \(tombstoneColumns) FROM installation_tombstones WHERE project_id = ?
    ORDER BY deleted_ms DESC, fid DESC LIMIT ?
    """
)

private let selectNextTombstonesPage = SQLStatement(
    """
    SELECT \(tombstoneColumns) FROM installation_tombstones
    WHERE project_id = ? AND (deleted_ms < ? OR (deleted_ms = ? AND fid < ?))
    ORDER BY deleted_ms DESC, fid DESC LIMIT ?
    """
)

extension StoreReading {
    public func installationTombstone(projectID: String, fid: String) throws(StoreError)
        -> InstallationTombstoneRecord?
    {
        try connection.queryFirst(
            selectTombstone,
            [.text(projectID), .text(fid)]
        ).map(InstallationTombstoneRecord.init(row:))
    }

    /// A page of the project's tombstones, newest first, strictly after the position
    /// `(deletedBefore, fidBefore)` of the previous page's last entry (`nil` for the first page).
    public func installationTombstones(
        projectID: String,
        after position: (deletedMilliseconds: Int64, fid: String)?,
        limit: Int
    ) throws(StoreError) -> [InstallationTombstoneRecord] {
        guard let position else {
            return try connection.query(
                selectFirstTombstonesPage,
                [.text(projectID), .integer(limit)]
            ).map(InstallationTombstoneRecord.init(row:))
        }
        return try connection.query(
            selectNextTombstonesPage,
            [
                .text(projectID), .integer(position.deletedMilliseconds), .integer(position.deletedMilliseconds),
                .text(position.fid), .integer(limit),
            ]
        ).map(InstallationTombstoneRecord.init(row:))
    }
}

private let insertTombstoneRow = SQLStatement(
    "INSERT INTO installation_tombstones (\(tombstoneColumns)) VALUES (?, ?, ?, ?, ?)"
)

extension WriteTransaction {
    public func insertInstallationTombstone(_ record: InstallationTombstoneRecord) throws(StoreError) {
        try connection.execute(
            insertTombstoneRow,
            [
                .text(record.projectID), .text(record.fid), .text(record.appID), .integer(record.deletedMilliseconds),
                .text(record.cause),
            ]
        )
    }
}

extension InstallationTombstoneRecord {
    init(row: SQLRow) {
        self.init(
            projectID: row.string(0),
            fid: row.string(1),
            appID: row.string(2),
            deletedMilliseconds: row.int64(3),
            cause: row.string(4)
        )
    }
}
