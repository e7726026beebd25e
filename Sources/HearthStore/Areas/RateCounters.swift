/// One counter of `rate_counters`: a bucket's hits in the window starting at `windowStart`,
/// kept until `expiresAt` (all in seconds).
public typealias RateCounter = (bucket: String, windowStart: Int64, expiresAt: Int64)

/// The upserts of `countHits`, for 1 to 8 buckets at once.
private let countHitsStatements: [SQLStatement] = (1...8).map { count in
    let rows = Array(repeating: "(?, ?, ?, ?)", count: count).joined(separator: ", ")
    return SQLStatement(
        """
        INSERT INTO rate_counters (bucket, window_start, hits, expires_at) VALUES \(rows)
        ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_counters.hits + excluded.hits
        """
    )
}

private let selectWindowHits = SQLStatement("SELECT hits FROM rate_counters WHERE bucket = ? AND window_start = ?")

private let insertHitBelowLimit = SQLStatement(
    """
    INSERT INTO rate_counters (bucket, window_start, hits, expires_at) VALUES (?, ?, 1, ?)
    ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_counters.hits + 1
    WHERE rate_counters.hits < ?
    """
)

private let removeOneHit = SQLStatement(
    "UPDATE rate_counters SET hits = hits - 1 WHERE bucket = ? AND window_start = ? AND hits > 0"
)

private let deleteBucketCounters = SQLStatement("DELETE FROM rate_counters WHERE bucket = ?")

private let deleteExpiredCounters = SQLStatement(
    """
    DELETE FROM rate_counters WHERE (bucket, window_start) IN (
        SELECT bucket, window_start FROM rate_counters WHERE expires_at <= ? LIMIT ?
    )
    """
)

extension WriteTransaction {
    /// Counts `amount` hits in each of several buckets with one statement (per up to 8 of them)
    /// and answers each window's total, in the order given (a request checked against two
    /// limits pays one write).
    ///
    /// The totals are read back with one lookup per bucket rather than `RETURNING`: SQLite
    /// gathers `RETURNING` rows in a temporary table first, which cost more than the upsert
    /// itself (measured: ~12 µs of ~21 µs for two buckets, ~6 µs for the two lookups).
    public func countHits(_ hits: [RateCounter], by amount: Int64 = 1) throws(StoreError) -> [Int64] {
        guard !hits.isEmpty else { return [] }
        var start = hits.startIndex
        while start < hits.endIndex {
            let end = min(start + countHitsStatements.count, hits.endIndex)
            var parameters: [SQLValue] = []
            parameters.reserveCapacity((end - start) * 4)
            for hit in hits[start..<end] {
                parameters += [.text(hit.bucket), .integer(hit.windowStart), .integer(amount), .integer(hit.expiresAt)]
            }
            try connection.execute(countHitsStatements[end - start - 1], parameters)
            start = end
        }
        var totals: [Int64] = []
        totals.reserveCapacity(hits.count)
        for hit in hits {
            let row = try connection.queryFirst(selectWindowHits, [.text(hit.bucket), .integer(hit.windowStart)])
            totals.append(row?.int64(0) ?? amount)
        }
        return totals
    }

    /// Counts one hit in a bucket's window unless the window already holds `limit`, and
    /// answers whether it counted: one statement, the check and the count together.
    public func addHit(_ hit: RateCounter, below limit: Int64) throws(StoreError) -> Bool {
        try connection.execute(
            insertHitBelowLimit,
            [.text(hit.bucket), .integer(hit.windowStart), .integer(hit.expiresAt), .integer(limit)]
        ) == 1
    }

    /// Takes back one hit that `addHit` counted.
    public func removeHit(_ hit: RateCounter) throws(StoreError) {
        try connection.execute(removeOneHit, [.text(hit.bucket), .integer(hit.windowStart)])
    }

    /// Forgets the counts of `bucket` (a successful sign-in clears its failures).
    public func resetHits(bucket: String) throws(StoreError) {
        try connection.execute(deleteBucketCounters, [.text(bucket)])
    }

    /// Drops windows that can no longer affect a decision.
    @discardableResult
    public func deleteExpiredRateCounters(now: Int64, limit: Int = 10_000) throws(StoreError) -> Int {
        // Batched so one sweep never holds the writer for long.
        return try connection.execute(deleteExpiredCounters, [.integer(now), .integer(limit)])
    }
}

private let sumBucketHits = SQLStatement(
    "SELECT COALESCE(SUM(hits), 0) FROM rate_counters WHERE bucket = ? AND window_start >= ?"
)

private let sumBucketHitsAndLatestWindow = SQLStatement(
    "SELECT COALESCE(SUM(hits), 0), MAX(window_start) FROM rate_counters WHERE bucket = ? AND window_start >= ?"
)

extension StoreReading {
    /// The hits counted in `bucket` across the windows that start at or after `since`.
    public func hits(bucket: String, since: Int64) throws(StoreError) -> Int64 {
        try connection.queryFirst(sumBucketHits, [.text(bucket), .integer(since)])?.int64(0) ?? 0
    }

    /// The hits counted in `bucket` across the windows that start at or after `since`, and
    /// the start of the latest of those windows (`nil` when there is none): one lookup.
    public func hitsAndLatestWindow(bucket: String, since: Int64) throws(StoreError) -> (hits: Int64, latest: Int64?) {
        let row = try connection.queryFirst(sumBucketHitsAndLatestWindow, [.text(bucket), .integer(since)])
        return (row?.int64(0) ?? 0, row?.optionalInt64(1))
    }
}
