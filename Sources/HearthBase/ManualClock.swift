import Synchronization

/// A clock that only moves when told to; the development server can use it through the
/// emulator time API and tests use it to cross expiry boundaries without sleeping.
public final class ManualClock: Clock {
    private let milliseconds: Atomic<Int64>

    public init(milliseconds: Int64) {
        self.milliseconds = Atomic(milliseconds)
    }

    public func nowMilliseconds() -> Int64 { milliseconds.load(ordering: .relaxed) }

    /// Moves the clock forward (or backward, for a negative amount).
    public func advance(milliseconds delta: Int64) {
        milliseconds.add(delta, ordering: .relaxed)
    }

    public func set(milliseconds value: Int64) {
        milliseconds.store(value, ordering: .relaxed)
    }
}
