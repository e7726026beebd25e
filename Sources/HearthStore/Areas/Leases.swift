/// A row of `leases`: who holds the lease called `name`, and until when (milliseconds since
/// the epoch, by the holder's clock).
public struct LeaseRecord: Sendable, Equatable {
    public var name: String
    public var holder: String
    public var expiresAt: Int64

    public init(name: String, holder: String, expiresAt: Int64) {
        self.name = name
        self.holder = holder
        self.expiresAt = expiresAt
    }
}

/// Takes a free or lapsed lease, or renews one held by the same holder; leaves it alone (no
/// row changed) while another holder's expiry is still ahead. One statement, so two nodes
/// racing for a lapsed lease cannot both win: the second's update sees the first's row.
/// Plain SQL on both databases — an upsert, no advisory locks — so it also runs on
/// PostgreSQL-wire distributed engines that have none.
private let takeOrRenewLease = SQLStatement(
    """
    INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
    ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
    WHERE leases.holder = excluded.holder OR leases.expires_at <= ?
    """
)

private let deleteHeldLease = SQLStatement("DELETE FROM leases WHERE name = ? AND holder = ?")

private let selectLease = SQLStatement("SELECT holder, expires_at FROM leases WHERE name = ?")

extension WriteTransaction {
    /// Takes the lease `name` for `holder` until `expiresAt`, or renews it when `holder`
    /// already holds it; answers whether it did. Another holder's lease is taken only once
    /// its expiry is at or before `now`.
    public func takeLease(_ name: String, holder: String, until expiresAt: Int64, now: Int64) throws(StoreError)
        -> Bool
    {
        try connection.execute(takeOrRenewLease, [.text(name), .text(holder), .integer(expiresAt), .integer(now)]) == 1
    }

    /// Gives up the lease `name` if `holder` holds it, so another holder may take it at once.
    @discardableResult
    public func releaseLease(_ name: String, holder: String) throws(StoreError) -> Bool {
        try connection.execute(deleteHeldLease, [.text(name), .text(holder)]) == 1
    }
}

extension StoreReading {
    /// The lease `name` as stored, lapsed or not; `nil` when nobody has taken it or it was
    /// released.
    public func lease(_ name: String) throws(StoreError) -> LeaseRecord? {
        guard let row = try connection.queryFirst(selectLease, [.text(name)]) else { return nil }
        return LeaseRecord(name: name, holder: row.string(0), expiresAt: row.int64(1))
    }
}
