import HearthBase
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The threads that run password hashes: one per core, each with its own Argon2 memory
/// (``Argon2Memory``), taking jobs in order from one queue.
///
/// Why a pool rather than hashing on the HTTP threads: a sign-in is ~30 ms of hashing and then a
/// durable write and a reply. On an HTTP thread the core idles while that thread waits for the
/// write's commit, and a thread that happens to hold fewer connections (the kernel spreads them
/// by hash) runs out of hashes to do while the other has a queue. Here every core hashes as long
/// as any sign-in waits, whatever the connections, and no more hashes run at once than there are
/// cores. A worker that has had nothing to do for `releaseAfterMilliseconds` unmaps its memory,
/// so idle memory comes back to its level before the load.
public final class PasswordHashingPool: Sendable {
    /// The process's pool, one thread per online core: hashing capacity is the machine's, so
    /// every hasher shares it.
    public static let shared = PasswordHashingPool(threads: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// What the pool's memory does, for tests and metrics.
    final class Counters: Sendable {
        /// Blocks mapped so far (a reused block counts once).
        let blocksMapped = Atomic<Int>(0)
        /// Bytes of Argon2 memory mapped now.
        let bytesHeld = Atomic<Int>(0)
    }

    private struct State {
        var jobs: [@Sendable () -> Void] = []  // a few at most: one per request waiting
        var isStopping = false
        var running: Int
    }

    private let state: ConditionLock<State>
    let counters = Counters()

    /// - Parameters:
    ///   - threads: how many hashes may run at once (at least 1).
    ///   - releaseAfterMilliseconds: how long a worker keeps its memory without a job.
    public init(threads: Int, releaseAfterMilliseconds: Int = 2_000, name: String = "argon2") {
        let count = max(1, threads)
        state = ConditionLock(State(running: count))
        for index in 0..<count {
            startBackgroundThread(named: "\(name)-\(index)") { [state, counters] in
                let memory = Argon2Memory(statistics: counters)
                memory.whileCurrent {
                    while let job = Self.nextJob(
                        state,
                        waitingAtMost: memory.block == nil ? nil : releaseAfterMilliseconds
                    ) {
                        if let job { job() } else { memory.release() }
                    }
                }
                memory.release()
                state.withLockThenBroadcast { $0.running -= 1 }
            }
        }
    }

    /// The next job; `.some(nil)` when `waitingAtMost` passed without one; `nil` once stopping
    /// with nothing left to do.
    private static func nextJob(
        _ state: ConditionLock<State>,
        waitingAtMost timeout: Int?
    ) -> (@Sendable () -> Void)?? {
        state.wait(until: { !$0.jobs.isEmpty || $0.isStopping }, timeoutMilliseconds: timeout) { state in
            if state.jobs.isEmpty { return state.isStopping ? nil : .some(nil) }
            return state.jobs.removeFirst()
        }
    }

    /// Queues `job` for the next free worker and returns at once.
    public func submit(_ job: @escaping @Sendable () -> Void) {
        state.withLockThenBroadcast { state in
            precondition(!state.isStopping, "job submitted to a stopped hashing pool")
            state.jobs.append(job)
        }
    }

    /// Runs `job` on a worker and waits for its result; on a worker thread (of any pool), runs it
    /// in place, so a job that hashes again cannot wait for itself.
    public func run<Value: Sendable>(_ job: @escaping @Sendable () -> Value) -> Value {
        if Argon2Memory.current != nil { return job() }
        let result = ConditionLock<Value?>(nil)
        submit {
            let value = job()
            result.withLockThenBroadcast { $0 = value }
        }
        return result.wait(until: { $0 != nil }) { $0! }
    }

    /// Runs the queued jobs, then ends the workers and waits for them.
    public func stop() {
        state.withLockThenBroadcast { $0.isStopping = true }
        state.wait(until: { $0.running == 0 }) { _ in }
    }
}
