public import HearthStore

/// A limit of `limit` events per fixed window of `windowSeconds`, counted in the store so it
/// holds across every node. Counting happens inside the caller's write transaction, so an
/// event and its count commit (or roll back) together.
public struct RateLimit: Sendable, Equatable {
    /// Names the counter family, e.g. `signin-failure-ip`.
    public let name: String
    public let limit: Int64
    public let windowSeconds: Int64

    public init(name: String, limit: Int64, windowSeconds: Int64) {
        precondition(limit > 0 && windowSeconds > 0, "a rate limit needs a positive limit and window")
        self.name = name
        self.limit = limit
        self.windowSeconds = windowSeconds
    }

    /// Counts one event for `key` and answers whether it is within the limit.
    public func record(_ key: String, in transaction: WriteTransaction, now: Int64) throws(StoreError) -> Bool {
        try transaction.countHits([counter(key, now: now)])[0] <= limit
    }

    /// Counts one event against each (limit, key) pair in one statement and answers, in order,
    /// whether each is within its limit. The pairs must name distinct counters.
    public static func record(
        _ entries: [(limit: RateLimit, key: String)],
        in transaction: WriteTransaction,
        now: Int64
    )
        throws(StoreError) -> [Bool]
    {
        let totals = try transaction.countHits(entries.map { $0.limit.counter($0.key, now: now) })
        return zip(entries, totals).map { entry, total in total <= entry.limit.limit }
    }

    /// Counts one event against each (limit, key) pair if every one of them has room left,
    /// and answers whether it did. A refusal leaves every count as it was (a count already
    /// made is taken back), so it suits a `StoreWrite`'s apply step. The pairs must name
    /// distinct counters.
    public static func admit(
        _ entries: [(limit: RateLimit, key: String)],
        in transaction: WriteTransaction,
        now: Int64
    ) throws(StoreError) -> Bool {
        let counters = entries.map { $0.limit.counter($0.key, now: now) }
        for index in entries.indices {
            guard try transaction.addHit(counters[index], below: entries[index].limit.limit) else {
                for counted in counters[..<index] { try transaction.removeHit(counted) }
                return false
            }
        }
        return true
    }

    /// Whether `key` has already used up the current window, without counting anything.
    public func isExhausted(_ key: String, in transaction: some StoreReading, now: Int64) throws -> Bool {
        try transaction.hits(bucket: bucket(key), since: windowStart(now)) >= limit
    }

    /// The seconds from `now` until the window `now` falls in ends (when an exhausted limit
    /// has room again).
    public func secondsLeftInWindow(now: Int64) -> Int64 { windowStart(now) + windowSeconds - now }

    /// Forgets `key`'s count (for limits on failures, after a success).
    public func reset(_ key: String, in transaction: WriteTransaction) throws(StoreError) {
        try transaction.resetHits(bucket: bucket(key))
    }

    private func windowStart(_ now: Int64) -> Int64 { now - now % windowSeconds }

    /// The store's counter of `key` for the window `now` falls in.
    private func counter(_ key: String, now: Int64) -> RateCounter {
        let window = windowStart(now)
        return (bucket(key), window, window + windowSeconds)
    }

    private func bucket(_ key: String) -> String { "\(name):\(key)" }
}
