/// A live app installation as stored: only a hash of its refresh token is kept.
public struct InstallationRecord: Sendable, Equatable {
    public var projectID: String
    public var fid: String
    public var appID: String
    public var refreshTokenHash: [UInt8]
    public var sdkVersion: String
    public var createdMilliseconds: Int64
    public var lastSeenMilliseconds: Int64

    public init(
        projectID: String,
        fid: String,
        appID: String,
        refreshTokenHash: [UInt8],
        sdkVersion: String,
        createdMilliseconds: Int64,
        lastSeenMilliseconds: Int64
    ) {
        self.projectID = projectID
        self.fid = fid
        self.appID = appID
        self.refreshTokenHash = refreshTokenHash
        self.sdkVersion = sdkVersion
        self.createdMilliseconds = createdMilliseconds
        self.lastSeenMilliseconds = lastSeenMilliseconds
    }
}

private let installationColumns =
    "project_id, fid, app_id, refresh_token_hash, sdk_version, created_ms, last_seen_ms"

private let selectInstallation = SQLStatement(
    "SELECT \(installationColumns) FROM installations WHERE project_id = ? AND fid = ?"
)

private let selectInstallationsPage = SQLStatement(
    "SELECT \(installationColumns) FROM installations WHERE project_id = ? AND fid > ? ORDER BY fid LIMIT ?"
)

private let selectInstallationsSeenBefore = SQLStatement(
    """
    SELECT fid FROM installations WHERE project_id = ? AND last_seen_ms < ?
    ORDER BY last_seen_ms LIMIT ?
    """
)

private let countInstallations = SQLStatement("SELECT COUNT(*) FROM installations WHERE project_id = ?")

extension StoreReading {
    /// The live installation `fid` of the project (one primary-key lookup).
    public func installation(projectID: String, fid: String) throws(StoreError) -> InstallationRecord? {
        try connection.queryFirst(selectInstallation, [.text(projectID), .text(fid)]).map(InstallationRecord.init(row:))
    }

    /// A page of the project's live installations in FID order, starting after `afterFID`.
    public func installations(projectID: String, afterFID: String, limit: Int) throws(StoreError)
        -> [InstallationRecord]
    {
        try connection.query(
            selectInstallationsPage,
            [.text(projectID), .text(afterFID), .integer(limit)]
        ).map(InstallationRecord.init(row:))
    }

    /// FIDs of the project's installations last seen before `cutoff`, least recently seen first.
    public func installationsSeenBefore(projectID: String, cutoffMilliseconds: Int64, limit: Int) throws(StoreError)
        -> [String]
    {
        try connection.query(
            selectInstallationsSeenBefore,
            [.text(projectID), .integer(cutoffMilliseconds), .integer(limit)]
        ).map { $0.string(0) }
    }

    public func installationCount(projectID: String) throws(StoreError) -> Int {
        try connection.queryFirst(countInstallations, [.text(projectID)])?.int(0) ?? 0
    }
}

private let insertNewInstallation = SQLStatement(
    """
    INSERT INTO installations (\(installationColumns))
    SELECT ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (
        SELECT 1 FROM installation_tombstones WHERE project_id = ? AND fid = ?
    )
    ON CONFLICT (project_id, fid) DO NOTHING
    """
)

private let updateInstallationRefreshToken = SQLStatement(
    """
    UPDATE installations SET refresh_token_hash = ?, sdk_version = ?, last_seen_ms = ?
    WHERE project_id = ? AND fid = ?
    """
)

private let updateInstallationSeen = SQLStatement(
    """
    UPDATE installations SET app_id = ?, sdk_version = ?,
        last_seen_ms = CASE WHEN last_seen_ms < ? THEN ? ELSE last_seen_ms END
    WHERE project_id = ? AND fid = ?
    """
)

private let deleteInstallationSeenBefore = SQLStatement(
    "DELETE FROM installations WHERE project_id = ? AND fid = ? AND last_seen_ms < ? RETURNING app_id"
)

private let deleteInstallationRow = SQLStatement(
    "DELETE FROM installations WHERE project_id = ? AND fid = ? RETURNING app_id"
)

extension WriteTransaction {
    /// Inserts a new installation unless its FID is taken in the project or was ever deleted
    /// there (a tombstone remains); whether it did. One statement, so registering a new FID
    /// costs the writer one B-tree probe of each table instead of three statements.
    public func insertInstallationIfNew(_ record: InstallationRecord) throws(StoreError) -> Bool {
        try connection.execute(
            insertNewInstallation,
            [
                .text(record.projectID), .text(record.fid), .text(record.appID), .blob(record.refreshTokenHash),
                .text(record.sdkVersion), .integer(record.createdMilliseconds), .integer(record.lastSeenMilliseconds),
                .text(record.projectID), .text(record.fid),
            ]
        ) == 1
    }

    /// Gives an existing installation a new refresh token (its owner registered it again).
    public func replaceInstallationRefreshToken(
        projectID: String,
        fid: String,
        refreshTokenHash: [UInt8],
        sdkVersion: String,
        seenAt now: Int64
    ) throws(StoreError) {
        try connection.execute(
            updateInstallationRefreshToken,
            [.blob(refreshTokenHash), .text(sdkVersion), .integer(now), .text(projectID), .text(fid)]
        )
    }

    /// Records that the installation was seen, with the app and SDK version it reported.
    /// Never moves `last_seen_ms` backwards.
    public func touchInstallation(
        projectID: String,
        fid: String,
        appID: String,
        sdkVersion: String,
        seenAt now: Int64
    ) throws(StoreError) {
        try connection.execute(
            updateInstallationSeen,
            [.text(appID), .text(sdkVersion), .integer(now), .integer(now), .text(projectID), .text(fid)]
        )
    }

    /// Removes the installation and answers its app, or `nil` if it was not there. With
    /// `seenBefore`, only an installation still unseen since then is removed (the sweeper's
    /// re-check, so one seen a moment ago survives).
    public func removeInstallation(projectID: String, fid: String, seenBefore: Int64? = nil) throws(StoreError)
        -> String?
    {
        if let seenBefore {
            return try connection.queryFirst(
                deleteInstallationSeenBefore,
                [.text(projectID), .text(fid), .integer(seenBefore)]
            )?.string(0)
        }
        return try connection.queryFirst(deleteInstallationRow, [.text(projectID), .text(fid)])?.string(0)
    }
}

extension InstallationRecord {
    init(row: SQLRow) {
        self.init(
            projectID: row.string(0),
            fid: row.string(1),
            appID: row.string(2),
            refreshTokenHash: row.bytes(3),
            sdkVersion: row.string(4),
            createdMilliseconds: row.int64(5),
            lastSeenMilliseconds: row.int64(6)
        )
    }
}
