import Synchronization

/// The system clock plus an adjustable offset. `hearth serve --test-clock` runs on one, so
/// end-to-end tests can move the real server's time forward (expiry, inactivity sweeps)
/// through `POST /emulator/v1/clock` without waiting.
public final class OffsetClock: Clock {
    private let base: any Clock
    private let offset = Atomic<Int64>(0)

    public init(base: any Clock = SystemClock()) {
        self.base = base
    }

    public func nowMilliseconds() -> Int64 { base.nowMilliseconds() + offset.load(ordering: .relaxed) }

    /// Moves time forward by `milliseconds` (never backward: time that runs back would
    /// un-expire codes and tokens).
    public func advance(milliseconds: Int64) {
        precondition(milliseconds >= 0, "the clock only moves forward")
        offset.add(milliseconds, ordering: .relaxed)
    }

    public var offsetMilliseconds: Int64 { offset.load(ordering: .relaxed) }
}
