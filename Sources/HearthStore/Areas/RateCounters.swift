extension WriteTransaction {
    /// Counts one more hit in `bucket` for the window starting at `windowStart` and answers
    /// the window's total. Kept in the store so that every node shares the same count.
    public func countHit(
        bucket: String,
        windowStart: Int64,
        expiresAt: Int64,
        by amount: Int64 = 1
    ) throws(StoreError) -> Int64 {
        let row = try connection.queryFirst(
            """
            INSERT INTO rate_counters (bucket, window_start, hits, expires_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_counters.hits + excluded.hits
            RETURNING hits
            """,
            [.text(bucket), .integer(windowStart), .integer(amount), .integer(expiresAt)]
        )
        return row?.int64(0) ?? amount
    }

    /// Forgets the counts of `bucket` (a successful sign-in clears its failures).
    public func resetHits(bucket: String) throws(StoreError) {
        try connection.execute("DELETE FROM rate_counters WHERE bucket = ?", [.text(bucket)])
    }

    /// Drops windows that can no longer affect a decision.
    @discardableResult
    public func deleteExpiredRateCounters(now: Int64, limit: Int = 10_000) throws(StoreError) -> Int {
        // Batched so one sweep never holds the writer for long; the row-identity column is
        // named differently by each backend.
        let rowIdentity = connection.dialect == .sqlite ? "rowid" : "ctid"
        return try connection.execute(
            """
            DELETE FROM rate_counters WHERE \(rowIdentity) IN (
                SELECT \(rowIdentity) FROM rate_counters WHERE expires_at <= ? LIMIT ?
            )
            """,
            [.integer(now), .integer(limit)]
        )
    }
}

extension StoreReading {
    /// The hits counted in `bucket` across the windows that start at or after `since`.
    public func hits(bucket: String, since: Int64) throws(StoreError) -> Int64 {
        try connection.queryFirst(
            "SELECT COALESCE(SUM(hits), 0) FROM rate_counters WHERE bucket = ? AND window_start >= ?",
            [.text(bucket), .integer(since)]
        )?.int64(0) ?? 0
    }
}
