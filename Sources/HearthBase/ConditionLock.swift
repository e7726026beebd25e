#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a mutex together with a condition variable, for a worker thread that
/// sleeps until there is work (`Synchronization.Mutex` has no condition variable).
public final class ConditionLock<Value>: @unchecked Sendable {
    // Safe to share: every access to `value` happens with `mutex` held.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Runs `body` with the lock held and wakes every waiter afterwards.
    @discardableResult
    public func withLockThenBroadcast<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try withLock(body, then: pthread_cond_broadcast)
    }

    /// Runs `body` with the lock held and wakes one waiter afterwards: for a change that one
    /// waiter can take (a job queued for a pool of threads).
    @discardableResult
    public func withLockThenSignal<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try withLock(body, then: pthread_cond_signal)
    }

    private func withLock<Result>(
        _ body: (inout Value) throws -> Result,
        then wake: (UnsafeMutablePointer<pthread_cond_t>) -> Int32
    ) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            _ = wake(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// Runs `body` with the lock held.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Waits until `ready` holds (or `timeoutMilliseconds` passes), then runs `body` with the
    /// lock held. `ready` and `body` see the value under the lock.
    public func wait<Result>(
        until ready: (Value) -> Bool,
        timeoutMilliseconds: Int? = nil,
        then body: (inout Value) throws -> Result
    ) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let timeoutMilliseconds {
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            let nanos = Int(deadline.tv_nsec) + (timeoutMilliseconds % 1000) * 1_000_000
            deadline.tv_sec += timeoutMilliseconds / 1000 + nanos / 1_000_000_000
            deadline.tv_nsec = nanos % 1_000_000_000
            while !ready(value) {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
            }
        } else {
            while !ready(value) { pthread_cond_wait(condition, mutex) }
        }
        return try body(&value)
    }
}
