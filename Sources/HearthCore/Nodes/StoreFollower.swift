public import HearthBase
public import HearthStore
import Synchronization

/// Keeps a copy in memory in step with the store: once started, runs its reload on a thread
/// of its own every interval (for changes nobody announces: the command line on a SQLite
/// file) and as soon as the store announces `topic` (another node's change on PostgreSQL,
/// within a moment). A failed reload (the store briefly unavailable) leaves the copy as it
/// was until the next.
final class StoreFollower: Sendable {
    private let worker = Mutex<PeriodicWorker?>(nil)
    private let name: String
    private let store: any Store
    private let topic: StoreTopic
    private let intervalMilliseconds: Int

    init(named name: String, store: any Store, topic: StoreTopic, intervalMilliseconds: Int) {
        self.name = name
        self.store = store
        self.topic = topic
        self.intervalMilliseconds = intervalMilliseconds
    }

    /// Starts the thread that runs `reload` (once: later calls do nothing).
    func start(_ reload: @escaping @Sendable () throws -> Void) {
        worker.withLock { worker in
            guard worker == nil else { return }
            let started = PeriodicWorker(named: name, intervalMilliseconds: intervalMilliseconds) { try? reload() }
            store.watch(topic) { started.wake() }
            worker = started
        }
    }

    /// Stops the thread, waiting for a reload in progress.
    func stop() {
        worker.withLock { $0.take() }?.stop()
    }
}
