/// When a failed delivery is tried again: exponential back-off from `baseMilliseconds`,
/// doubling per attempt up to `capMilliseconds`, with "equal jitter" — half the wait fixed,
/// half random — so that messages that failed together (an SMTP outage) do not all come back
/// at the same instant, yet none is retried much sooner than the schedule says.
public struct RetrySchedule: Sendable, Equatable {
    public var baseMilliseconds: Int64
    public var capMilliseconds: Int64

    public init(baseMilliseconds: Int64 = 10_000, capMilliseconds: Int64 = 30 * 60_000) {
        precondition(baseMilliseconds > 0 && capMilliseconds >= baseMilliseconds, "a retry schedule must grow")
        self.baseMilliseconds = baseMilliseconds
        self.capMilliseconds = capMilliseconds
    }

    /// The wait after the `attempt`-th failed attempt (1 for the first), given `random` in
    /// `0..<1`.
    public func delay(afterAttempt attempt: Int, random: Double) -> Int64 {
        let exponent = min(max(attempt, 1) - 1, 40)
        let (scaled, overflow) = baseMilliseconds.multipliedReportingOverflow(by: Int64(1) << exponent)
        let ceiling = overflow ? capMilliseconds : min(scaled, capMilliseconds)
        let half = ceiling / 2
        return ceiling - half + Int64((Double(half) * min(max(random, 0), 1)).rounded(.down))
    }
}
