public import HearthBase

/// Threads that run the handlers that may block — on a read from a database across the
/// network, above all — so that the server's event threads keep answering every other
/// connection meanwhile, even while the database does not answer at all. A ``Router`` with a
/// pool answers such a request later (a deferred response): the handler runs on a pool thread,
/// in the order requests arrived.
///
/// While the resource the pool guards is known to fail fast (a database found not to
/// answer), its jobs cannot block, so the router runs them in place: a request then gets its
/// answer (a 503) at once instead of queuing behind threads still waiting on that resource.
public final class HandlerPool: Sendable {
    private struct Queue {
        var jobs: [(@Sendable () -> Void)?] = []
        /// The index of the oldest job still to run.
        var head = 0
        var isStopping = false
        var running: Int

        var isEmpty: Bool { head == jobs.count }

        mutating func take() -> (@Sendable () -> Void)? {
            guard !isEmpty else { return nil }
            defer {
                jobs[head] = nil
                head += 1
                // Drop the spent front once it is most of the array.
                if head > 256 && head * 2 > jobs.count {
                    jobs.removeFirst(head)
                    head = 0
                }
            }
            return jobs[head]
        }
    }

    private let queue: ConditionLock<Queue>
    private let failsFast: @Sendable () -> Bool

    /// Starts `threads` threads called `name-N`. `failsFast` says whether jobs cannot block
    /// now; it is asked for every request, so it must be cheap.
    public init(threads: Int, name: String = "handler", failsFast: @escaping @Sendable () -> Bool = { false }) {
        self.failsFast = failsFast
        let count = max(1, threads)
        let queue = ConditionLock(Queue(running: count))
        self.queue = queue
        for index in 0..<count {
            startBackgroundThread(named: "\(name)-\(index)") {
                while let job = queue.wait(until: { !$0.isEmpty || $0.isStopping }, then: { $0.take() }) {
                    job()
                }
                queue.withLockThenBroadcast { $0.running -= 1 }
            }
        }
    }

    /// Whether a job would not block now, so that it may run where it is asked.
    public var mayRunInPlace: Bool { failsFast() }

    /// Queues `job` to run on a pool thread.
    public func run(_ job: @escaping @Sendable () -> Void) {
        queue.withLockThenSignal { $0.jobs.append(job) }
    }

    /// Lets the threads finish the jobs queued, then end; waits until they have.
    public func stop() {
        queue.withLockThenBroadcast { $0.isStopping = true }
        queue.wait(until: { $0.running == 0 }) { _ in }
    }
}
