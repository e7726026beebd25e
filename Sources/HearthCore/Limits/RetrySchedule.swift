/// When failed work (an email delivery, a deletion webhook) is tried again, or how long a caller
/// backs off after failures (``FailureBackoff``, which uses the un-jittered wait): the wait doubles
/// from `baseMilliseconds` after each failure up to `maximumMilliseconds`, with "equal
/// jitter" — half of it fixed, half random — so that work that failed together (an outage)
/// does not all come back at the same instant, yet none much sooner than the schedule says.
/// After `maximumAttempts` attempts (if set) the work is given up.
public struct RetrySchedule: Sendable, Equatable {
    public var baseMilliseconds: Int64
    public var maximumMilliseconds: Int64
    /// Attempts after which the work is given up; `nil` when a deadline decides instead.
    public var maximumAttempts: Int?

    public init(baseMilliseconds: Int64, maximumMilliseconds: Int64, maximumAttempts: Int? = nil) {
        precondition(baseMilliseconds > 0 && maximumMilliseconds >= baseMilliseconds, "a retry schedule must grow")
        precondition(maximumAttempts.map { $0 > 0 } ?? true, "at least one attempt")
        self.baseMilliseconds = baseMilliseconds
        self.maximumMilliseconds = maximumMilliseconds
        self.maximumAttempts = maximumAttempts
    }

    /// The wait after `failedAttempts` failed attempts (1 for the first), given `random` in
    /// `0...1` (1 gives the full, un-jittered wait); `nil` when no attempt is left.
    public func delayMilliseconds(afterFailedAttempts failedAttempts: Int, random: Double = 1) -> Int64? {
        if let maximumAttempts, failedAttempts >= maximumAttempts { return nil }
        // Past 2^40 the product would only overflow; the cap has long been reached.
        let doublings = min(max(failedAttempts, 1) - 1, 40)
        let (scaled, overflow) = baseMilliseconds.multipliedReportingOverflow(by: Int64(1) << doublings)
        let ceiling = overflow ? maximumMilliseconds : min(scaled, maximumMilliseconds)
        let half = ceiling / 2
        return ceiling - half + Int64((Double(half) * min(max(random, 0), 1)).rounded(.down))
    }
}
