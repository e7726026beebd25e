public import HearthStore

/// Back-off on failures of one kind (wrong passwords, wrong admin credentials) per key: the
/// first `freeFailures` failures within `memorySeconds` cost nothing; after that each attempt
/// must wait, from the latest failure, `schedule`'s delay for the failures beyond the free
/// ones (doubling up to its cap). An attempt is never refused for good: once the wait has
/// passed, the next one is tried.
///
/// Failures are counted in the store's rate counters (one counter per key and second, kept
/// for `memorySeconds`), so the count holds across nodes like ``RateLimit``'s, and the count
/// is a sliding window: a failure is forgotten `memorySeconds` after it happened.
public struct FailureBackoff: Sendable, Equatable {
    /// Names the counter family, e.g. `signin-backoff-ip`.
    public let name: String
    public let freeFailures: Int64
    /// The wait after the first failure beyond the free ones, doubling after each further one.
    public let schedule: RetrySchedule
    public let memorySeconds: Int64

    public init(name: String, freeFailures: Int64, schedule: RetrySchedule, memorySeconds: Int64) {
        precondition(freeFailures >= 0 && memorySeconds > 0, "a back-off needs a memory")
        self.name = name
        self.freeFailures = freeFailures
        self.schedule = schedule
        self.memorySeconds = memorySeconds
    }

    /// A key's failures still remembered at some instant.
    public struct Failures: Sendable, Equatable {
        public var count: Int64
        /// When the latest of them happened (seconds), `nil` when there is none.
        public var latestAt: Int64?

        public init(count: Int64, latestAt: Int64?) {
            self.count = count
            self.latestAt = latestAt
        }

        public static let none = Failures(count: 0, latestAt: nil)
    }

    /// The failures of `key` remembered at `now` (seconds).
    public func failures(_ key: String, in transaction: some StoreReading, now: Int64) throws -> Failures {
        let found = try transaction.hitsAndLatestWindow(bucket: bucket(key), since: now - memorySeconds + 1)
        return Failures(count: found.hits, latestAt: found.latest)
    }

    /// The seconds left before `failures` allow another attempt at `now`, or `nil` when one is
    /// allowed now. `freeFailures` overrides the back-off's own (a stricter allowance).
    public func waitSeconds(after failures: Failures, now: Int64, freeFailures free: Int64? = nil) -> Int64? {
        let beyond = failures.count - (free ?? freeFailures)
        guard beyond > 0, let latestAt = failures.latestAt else { return nil }
        let attempts = Int(min(beyond, Int64(Int32.max)))
        let delayMilliseconds =
            schedule.delayMilliseconds(afterFailedAttempts: attempts) ?? schedule.maximumMilliseconds
        let retryAt = latestAt + (delayMilliseconds + 999) / 1_000
        return retryAt > now ? retryAt - now : nil
    }

    /// Counts one failure against each (back-off, key) pair with one statement.
    public static func recordFailure(
        _ entries: [(backoff: FailureBackoff, key: String)],
        in transaction: WriteTransaction,
        now: Int64
    ) throws(StoreError) {
        _ = try transaction.countHits(
            entries.map { entry in (entry.backoff.bucket(entry.key), now, now + entry.backoff.memorySeconds) }
        )
    }

    /// Forgets `key`'s failures (after a success that proves the caller).
    public func reset(_ key: String, in transaction: WriteTransaction) throws(StoreError) {
        try transaction.resetHits(bucket: bucket(key))
    }

    private func bucket(_ key: String) -> String { "\(name):\(key)" }
}
