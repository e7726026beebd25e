/// A source of wall-clock time, injected wherever a rule depends on "now" (expiry, back-off,
/// rate windows, inactivity), so tests can move time instead of sleeping.
public protocol Clock: Sendable {
    /// The current time as milliseconds since the Unix epoch.
    func nowMilliseconds() -> Int64
}

extension Clock {
    /// The current time as whole seconds since the Unix epoch.
    public func nowSeconds() -> Int64 { nowMilliseconds() / 1000 }
}
