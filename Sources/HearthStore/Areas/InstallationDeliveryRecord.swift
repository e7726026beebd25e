/// One deletion event owed to one subscribed service, and how its delivery went.
public struct InstallationDeliveryRecord: Sendable, Equatable {
    /// Where a delivery stands.
    public enum State: String, Sendable, CaseIterable {
        /// Not yet delivered; tried again at `nextAttemptMilliseconds`.
        case pending
        /// The service answered 2xx.
        case delivered
        /// Every attempt failed; no more will be made.
        case failed
    }

    public var webhookID: String
    public var fid: String
    public var projectID: String
    public var state: State
    public var attempts: Int
    public var nextAttemptMilliseconds: Int64
    /// The node sending it right now, until `leaseUntilMilliseconds`.
    public var leaseOwner: String?
    public var leaseUntilMilliseconds: Int64?
    public var lastAttemptMilliseconds: Int64?
    /// The HTTP status of the last attempt; `nil` when it got no answer.
    public var lastStatus: Int?
    public var lastError: String?
    public var deliveredMilliseconds: Int64?
    public var createdMilliseconds: Int64

    public init(
        webhookID: String,
        fid: String,
        projectID: String,
        state: State,
        attempts: Int,
        nextAttemptMilliseconds: Int64,
        leaseOwner: String? = nil,
        leaseUntilMilliseconds: Int64? = nil,
        lastAttemptMilliseconds: Int64? = nil,
        lastStatus: Int? = nil,
        lastError: String? = nil,
        deliveredMilliseconds: Int64? = nil,
        createdMilliseconds: Int64
    ) {
        self.webhookID = webhookID
        self.fid = fid
        self.projectID = projectID
        self.state = state
        self.attempts = attempts
        self.nextAttemptMilliseconds = nextAttemptMilliseconds
        self.leaseOwner = leaseOwner
        self.leaseUntilMilliseconds = leaseUntilMilliseconds
        self.lastAttemptMilliseconds = lastAttemptMilliseconds
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.deliveredMilliseconds = deliveredMilliseconds
        self.createdMilliseconds = createdMilliseconds
    }
}

/// A delivery claimed for sending, with what the sender needs: the event and the endpoint.
public struct ClaimedInstallationDelivery: Sendable, Equatable {
    public var webhookID: String
    public var url: String
    public var sealedSecret: [UInt8]
    public var tombstone: InstallationTombstoneRecord
    /// Attempts made before this one.
    public var attempts: Int
}

private let deliveryColumns = """
    webhook_id, fid, project_id, state, attempts, next_attempt_ms, lease_owner, lease_until_ms,
    last_attempt_ms, last_status, last_error, delivered_ms, created_ms
    """

private let selectDeliveriesOfFID = SQLStatement(
    "SELECT \(deliveryColumns) FROM installation_deliveries WHERE project_id = ? AND fid = ? ORDER BY webhook_id"
)

private let selectDueDelivery = SQLStatement(
    "SELECT 1 FROM installation_deliveries WHERE state = 'pending' AND next_attempt_ms <= ? LIMIT 1"
)

/// A page of a project's deliveries, in every state or (with a second parameter) in one.
private let selectDeliveriesPage = deliveriesPage(stateFilter: "")
private let selectDeliveriesPageInState = deliveriesPage(stateFilter: "AND state = ?")

private func deliveriesPage(stateFilter: String) -> SQLStatement {
    SQLStatement(
        """
        SELECT \(deliveryColumns) FROM installation_deliveries
        WHERE project_id = ? \(stateFilter) AND (created_ms > ?
            OR (created_ms = ? AND webhook_id > ?)
            OR (created_ms = ? AND webhook_id = ? AND fid > ?))
        ORDER BY created_ms, webhook_id, fid LIMIT ?
        """
    )
}

extension StoreReading {
    /// The deliveries of the deletion event of `fid`, one per subscribed service.
    public func installationDeliveries(projectID: String, fid: String) throws(StoreError)
        -> [InstallationDeliveryRecord]
    {
        try connection.query(
            selectDeliveriesOfFID,
            [.text(projectID), .text(fid)]
        ).compactMap(InstallationDeliveryRecord.init(row:))
    }

    /// The project's deliveries, optionally in one state, oldest first, after the position of
    /// the previous page's last entry.
    public func installationDeliveries(
        projectID: String,
        state: InstallationDeliveryRecord.State?,
        after position: (createdMilliseconds: Int64, webhookID: String, fid: String)?,
        limit: Int
    ) throws(StoreError) -> [InstallationDeliveryRecord] {
        let position = position ?? (.min, "", "")
        var parameters: [SQLValue] = [.text(projectID)]
        if let state { parameters.append(.text(state.rawValue)) }
        parameters += [
            .integer(position.createdMilliseconds), .integer(position.createdMilliseconds), .text(position.webhookID),
            .integer(position.createdMilliseconds), .text(position.webhookID), .text(position.fid), .integer(limit),
        ]
        return try connection.query(
            state == nil ? selectDeliveriesPage : selectDeliveriesPageInState,
            parameters
        ).compactMap(InstallationDeliveryRecord.init(row:))
    }

    /// Whether any delivery is due at `now` (a cheap check before claiming in a write).
    public func hasDueInstallationDelivery(now: Int64) throws(StoreError) -> Bool {
        try connection.queryFirst(selectDueDelivery, [.integer(now)]) != nil
    }
}

private let insertDeliveriesOfTombstone = SQLStatement(
    """
    INSERT INTO installation_deliveries
        (webhook_id, fid, project_id, state, attempts, next_attempt_ms, created_ms)
    SELECT webhook_id, ?, project_id, 'pending', 0, ?, ? FROM installation_webhooks WHERE project_id = ?
    """
)

private let selectClaimedDeliveryDetails = SQLStatement(
    """
    SELECT w.url, w.sealed_secret, d.attempts, t.project_id, t.fid, t.app_id, t.deleted_ms, t.cause
    FROM installation_deliveries d
    JOIN installation_webhooks w ON w.webhook_id = d.webhook_id
    JOIN installation_tombstones t ON t.project_id = d.project_id AND t.fid = d.fid
    WHERE d.webhook_id = ? AND d.fid = ?
    """
)

private let releaseDeliveryLeases = SQLStatement(
    """
    UPDATE installation_deliveries SET lease_owner = NULL, lease_until_ms = NULL, next_attempt_ms = ?
    WHERE lease_owner = ? AND state = 'pending'
    """
)

private let recordDeliveryAttempt = SQLStatement(
    """
    UPDATE installation_deliveries SET state = ?, attempts = attempts + 1, next_attempt_ms = ?,
        lease_owner = NULL, lease_until_ms = NULL, last_attempt_ms = ?, last_status = ?, last_error = ?,
        delivered_ms = ?
    WHERE webhook_id = ? AND fid = ? AND lease_owner = ? AND state = 'pending'
    """
)

/// Chosen once, before the update, as `claimOutboxMessages` chooses its messages (see there).
private let claimDeliveries = SQLStatement(
    """
    WITH chosen AS MATERIALIZED (
        SELECT webhook_id, fid FROM installation_deliveries
        WHERE state = 'pending' AND next_attempt_ms <= ? ORDER BY next_attempt_ms LIMIT ?
        \(SQLStatement.lockingChosenRows)
    )
    UPDATE installation_deliveries SET lease_owner = ?, lease_until_ms = ?, next_attempt_ms = ?
    WHERE state = 'pending' AND next_attempt_ms <= ? AND (webhook_id, fid) IN (SELECT webhook_id, fid FROM chosen)
    RETURNING webhook_id, fid
    """
)

extension WriteTransaction {
    /// Queues the event of the tombstone `fid` for every service subscribed to the project;
    /// answers how many deliveries were queued.
    @discardableResult
    public func queueInstallationDeliveries(projectID: String, fid: String, now: Int64) throws(StoreError) -> Int {
        try connection.execute(
            insertDeliveriesOfTombstone,
            [.text(fid), .integer(now), .integer(now), .text(projectID)]
        )
    }

    /// Claims up to `limit` due deliveries for `owner` until `leaseUntil`: nobody else claims
    /// them before then. A claim moves `next_attempt_ms` to the lease's end, so a node that
    /// dies mid-send leaves them due again when its lease runs out. On PostgreSQL the chosen
    /// deliveries are locked, skipping those another node is claiming, and the outer conditions
    /// are re-checked on each row, so two nodes racing never both win the same delivery.
    public func claimInstallationDeliveries(
        owner: String,
        now: Int64,
        leaseUntil: Int64,
        limit: Int
    ) throws(StoreError) -> [ClaimedInstallationDelivery] {
        let keys = try connection.query(
            claimDeliveries,
            [.integer(now), .integer(limit), .text(owner), .integer(leaseUntil), .integer(leaseUntil), .integer(now)]
        )
        var claimed: [ClaimedInstallationDelivery] = []
        for key in keys {
            guard
                let row = try connection.queryFirst(selectClaimedDeliveryDetails, [key[0], key[1]])
            else { continue }
            claimed.append(
                ClaimedInstallationDelivery(
                    webhookID: key.string(0),
                    url: row.string(0),
                    sealedSecret: row.bytes(1),
                    tombstone: InstallationTombstoneRecord(
                        projectID: row.string(3),
                        fid: row.string(4),
                        appID: row.string(5),
                        deletedMilliseconds: row.int64(6),
                        cause: row.string(7)
                    ),
                    attempts: row.int(2)
                )
            )
        }
        return claimed
    }

    /// Gives back deliveries `owner` claimed but did not attempt (its run ended early), so
    /// they are due again at once instead of when the lease runs out.
    @discardableResult
    public func releaseInstallationDeliveries(owner: String, now: Int64) throws(StoreError) -> Int {
        try connection.execute(releaseDeliveryLeases, [.integer(now), .text(owner)])
    }

    /// Records an attempt made under `owner`'s lease: delivered, retried at `nextAttempt`, or
    /// given up (`state` `.failed`). Answers `false` when the lease was lost meanwhile.
    @discardableResult
    public func recordInstallationDeliveryAttempt(
        webhookID: String,
        fid: String,
        owner: String,
        state: InstallationDeliveryRecord.State,
        status: Int?,
        error: String?,
        at now: Int64,
        nextAttempt: Int64
    ) throws(StoreError) -> Bool {
        try connection.execute(
            recordDeliveryAttempt,
            [
                .text(state.rawValue), .integer(nextAttempt), .integer(now), .integer(status.map(Int64.init)),
                .text(error), .integer(state == .delivered ? now : nil), .text(webhookID), .text(fid), .text(owner),
            ]
        ) > 0
    }
}

extension InstallationDeliveryRecord {
    init?(row: SQLRow) {
        guard let state = State(rawValue: row.string(3)) else { return nil }
        self.init(
            webhookID: row.string(0),
            fid: row.string(1),
            projectID: row.string(2),
            state: state,
            attempts: row.int(4),
            nextAttemptMilliseconds: row.int64(5),
            leaseOwner: row.optionalString(6),
            leaseUntilMilliseconds: row.optionalInt64(7),
            lastAttemptMilliseconds: row.optionalInt64(8),
            lastStatus: row.optionalInt64(9).map(Int.init),
            lastError: row.optionalString(10),
            deliveredMilliseconds: row.optionalInt64(11),
            createdMilliseconds: row.int64(12)
        )
    }
}
