/// When a failed webhook delivery is tried again: the delay doubles from `base` after each
/// failure up to `maximum`, and after `maximumAttempts` attempts the delivery is given up.
/// With the defaults (30 s doubling to 6 h, 20 attempts) a receiver may be down for about
/// three days without losing an event.
public struct RetrySchedule: Sendable, Equatable {
    public var baseMilliseconds: Int64
    public var maximumMilliseconds: Int64
    public var maximumAttempts: Int

    public init(baseMilliseconds: Int64 = 30_000, maximumMilliseconds: Int64 = 6 * 3_600_000, maximumAttempts: Int = 20)
    {
        precondition(baseMilliseconds > 0 && maximumMilliseconds >= baseMilliseconds && maximumAttempts > 0)
        self.baseMilliseconds = baseMilliseconds
        self.maximumMilliseconds = maximumMilliseconds
        self.maximumAttempts = maximumAttempts
    }

    /// The wait before the next attempt once `failedAttempts` attempts (1 or more) have
    /// failed, or `nil` when no attempt is left.
    public func delayMilliseconds(afterFailedAttempts failedAttempts: Int) -> Int64? {
        precondition(failedAttempts >= 1, "a delay follows at least one failed attempt")
        guard failedAttempts < maximumAttempts else { return nil }
        // Past 2^40 the product would only overflow; the cap has long been reached.
        let doublings = min(failedAttempts - 1, 40)
        let (delay, overflow) = baseMilliseconds.multipliedReportingOverflow(by: Int64(1) << doublings)
        return overflow ? maximumMilliseconds : min(delay, maximumMilliseconds)
    }
}
