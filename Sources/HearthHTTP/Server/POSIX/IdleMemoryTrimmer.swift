import CMicroHTTPD
import Glibc
import Synchronization

/// Hands memory that `free` kept back to the kernel (`malloc_trim`) once the server has been
/// idle for a while after activity. glibc returns the top of a heap on its own but keeps freed
/// chunks below live ones, and keeps a thread arena's memory for good: after a burst of
/// requests or connections a server would otherwise stay at its peak resident size.
///
/// "Idle" is: no request begun and no connection closed for ``idleNanoseconds``. The trim runs
/// on the connection guard's thread (its `onTick`) once the server has been idle that long, and
/// once more after ten times that: libmicrohttpd frees a closed connection's memory after it
/// tells of the close, and on a loaded machine that can come after the first trim.
final class IdleMemoryTrimmer: Sendable {
    let idleNanoseconds: UInt64
    /// Bumped by every request begun and connection closed.
    private let activity = Atomic<UInt64>(0)
    /// Only the ticking thread uses this.
    private struct Seen {
        var activity: UInt64 = 0
        var since: UInt64 = 0
        /// Trims done since the last activity (none before the first activity).
        var trims = IdleMemoryTrimmer.trimAfterPeriods.count
    }
    /// How long after the last activity each trim of an idle period runs, in idle periods.
    private static let trimAfterPeriods: [UInt64] = [1, 10]
    private let seen = Mutex(Seen())
    /// Trims done, for tests.
    let trims = Atomic<Int>(0)

    /// - Parameter idleNanoseconds: 0 turns trimming off.
    init(idleNanoseconds: UInt64) {
        self.idleNanoseconds = idleNanoseconds
    }

    /// Something happened: a request began or a connection closed.
    func noteActivity() {
        activity.add(1, ordering: .relaxed)
    }

    /// Trims if the server has been idle long enough since the last activity not yet trimmed.
    func tick(now: UInt64) {
        guard idleNanoseconds > 0 else { return }
        let current = activity.load(ordering: .relaxed)
        let due = seen.withLock { seen -> Bool in
            if current != seen.activity {
                seen.activity = current
                seen.since = now
                seen.trims = 0
                return false
            }
            guard seen.trims < Self.trimAfterPeriods.count,
                now &- seen.since >= Self.trimAfterPeriods[seen.trims] * idleNanoseconds
            else { return false }
            seen.trims += 1
            return true
        }
        guard due else { return }
        malloc_trim(0)
        trims.add(1, ordering: .relaxed)
    }
}
