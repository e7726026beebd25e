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

    /// Counts one hit in each of several buckets with one statement and answers each window's
    /// total, in the order given (a request checked against two limits pays one round).
    public func countHits(
        _ hits: [(bucket: String, windowStart: Int64, expiresAt: Int64)]
    ) throws(StoreError) -> [Int64] {
        guard !hits.isEmpty else { return [] }
        let values = Array(repeating: "(?, ?, 1, ?)", count: hits.count).joined(separator: ", ")
        var parameters: [SQLValue] = []
        parameters.reserveCapacity(hits.count * 3)
        for hit in hits {
            parameters += [.text(hit.bucket), .integer(hit.windowStart), .integer(hit.expiresAt)]
        }
        let rows = try connection.query(
            """
            INSERT INTO rate_counters (bucket, window_start, hits, expires_at) VALUES \(values)
            ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_counters.hits + excluded.hits
            RETURNING bucket, window_start, hits
            """,
            parameters
        )
        return hits.map { hit in
            rows.first { $0.string(0) == hit.bucket && $0.int64(1) == hit.windowStart }?.int64(2) ?? 1
        }
    }

    /// Forgets the counts of `bucket` (a successful sign-in clears its failures).
    public func resetHits(bucket: String) throws(StoreError) {
        try connection.execute("DELETE FROM rate_counters WHERE bucket = ?", [.text(bucket)])
    }

    /// Drops windows that can no longer affect a decision.
    @discardableResult
    public func deleteExpiredRateCounters(now: Int64, limit: Int = 10_000) throws(StoreError) -> Int {
        // Batched so one sweep never holds the writer for long.
        return try connection.execute(
            """
            DELETE FROM rate_counters WHERE (bucket, window_start) IN (
                SELECT bucket, window_start FROM rate_counters WHERE expires_at <= ? LIMIT ?
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
