/// Runs a job on its own thread every `interval`, until stopped. Used for maintenance that
/// must not wait on requests (sweepers, queue workers, expiry clean-up).
public final class PeriodicWorker: Sendable {
    private struct State {
        var isStopping = false
        var isStopped = false
        var wakeRequested = false
    }

    private let state = ConditionLock(State())

    /// Starts the thread, called `name` (see `startBackgroundThread`). `job` runs at once,
    /// then every `intervalMilliseconds` (or sooner after `wake()`).
    public convenience init(named name: String, intervalMilliseconds: Int, job: @escaping @Sendable () -> Void) {
        self.init(named: name) {
            job()
            return intervalMilliseconds
        }
    }

    /// Starts the thread, called `name`. `job` runs at once, then again after as many
    /// milliseconds as it answered (or sooner after `wake()`): for a job that knows when it is
    /// next due.
    public init(named name: String, job: @escaping @Sendable () -> Int) {
        startBackgroundThread(named: name) { [state] in
            while true {
                let delay = job()
                let stopping = state.wait(
                    until: { $0.isStopping || $0.wakeRequested },
                    timeoutMilliseconds: delay
                ) { state -> Bool in
                    state.wakeRequested = false
                    return state.isStopping
                }
                if stopping { break }
            }
            state.withLockThenBroadcast { $0.isStopped = true }
        }
    }

    /// Runs the job again as soon as the current run (if any) ends.
    public func wake() {
        state.withLockThenBroadcast { $0.wakeRequested = true }
    }

    /// Asks the thread to stop and waits until its current run has finished.
    public func stop() {
        state.withLockThenBroadcast { $0.isStopping = true }
        state.wait(until: { $0.isStopped }) { _ in }
    }
}
