import HearthBase
import HearthCore
import HearthNetwork
import HearthStore
import Synchronization

/// Tunables of the installations service that belong to the node, not to a project.
public struct InstallationServiceSettings: Sendable, Equatable {
    /// How often the inactivity sweeper runs.
    public var sweepIntervalMilliseconds = 60_000
    /// The first retry delay of a failed webhook delivery; it doubles up to six hours.
    public var webhookRetryBaseMilliseconds: Int64 = 30_000

    public init() {}

    /// How often the webhook sender looks for due deliveries (it is also woken at once by a
    /// deletion on this node): never slower than the first retry.
    var deliveryPollMilliseconds: Int { Int(min(5_000, webhookRetryBaseMilliseconds)) }
}

/// The installations area of a node: the registry the routes call, webhook subscriptions,
/// and the two background workers — the inactivity sweeper and the webhook sender.
final class InstallationService: Sendable {
    let registry: InstallationRegistry
    let webhooks: InstallationWebhooks
    let sweeper: InactivitySweeper
    let delivery: DeletionEventDelivery
    let settings: InstallationServiceSettings
    private let log: Log
    private let deliveryWorker: WorkerHandle
    private let sweepWorker = WorkerHandle()

    init(
        store: any Store,
        clock: any Clock,
        log: Log,
        projects: ProjectDirectory,
        keys: KeyRing,
        masterKey: MasterKey,
        settings: InstallationServiceSettings
    ) {
        self.settings = settings
        self.log = log
        let deliveryWorker = WorkerHandle()
        self.deliveryWorker = deliveryWorker
        let wakeSender: @Sendable () -> Void = { deliveryWorker.wake() }
        registry = InstallationRegistry(store: store, clock: clock, keys: keys, onDeletion: wakeSender)
        webhooks = InstallationWebhooks(store: store, clock: clock, masterKey: masterKey)
        sweeper = InactivitySweeper(store: store, clock: clock, projects: projects, onDeletion: wakeSender)
        delivery = DeletionEventDelivery(
            store: store,
            clock: clock,
            projects: projects,
            webhooks: webhooks,
            transport: CurlWebhookTransport(),
            settings: DeletionEventDelivery.Settings(
                retry: RetrySchedule(
                    baseMilliseconds: settings.webhookRetryBaseMilliseconds,
                    maximumMilliseconds: max(settings.webhookRetryBaseMilliseconds, 6 * 3_600_000)
                )
            ),
            log: log
        )
    }

    /// Starts the sweeper, which sweeps only while this node holds `singletonLease`, and the
    /// webhook sender, which runs on every node (its claims keep two nodes from sending one
    /// delivery); the caller stops them.
    func startWorkers(singletonLease lease: LeaseKeeper) -> [PeriodicWorker] {
        let (sweeper, delivery, log, sweepWorker) = (self.sweeper, self.delivery, self.log, self.sweepWorker)
        let sweeping = PeriodicWorker(named: "fis-sweep", intervalMilliseconds: settings.sweepIntervalMilliseconds) {
            do {
                let report = try sweeper.sweep(while: { lease.isHeld })
                if report.deleted > 0 {
                    log.info("inactive installations deleted", ["count": .int(Int64(report.deleted))])
                }
                // A large backlog continues at once, one bounded run at a time, so that
                // shutdown never waits for a whole sweep.
                if report.moreRemain { sweepWorker.wake() }
            } catch {
                log.warning("installation sweep failed", ["error": .string(String(describing: error))])
            }
        }
        let sending = PeriodicWorker(named: "fis-webhooks", intervalMilliseconds: settings.deliveryPollMilliseconds) {
            do {
                try delivery.deliverDue()
            } catch {
                log.warning("webhook delivery run failed", ["error": .string(String(describing: error))])
            }
        }
        sweepWorker.set(sweeping)
        deliveryWorker.set(sending)
        return [sweeping, sending]
    }

    /// Lets the sweeper run now (this node just took the singleton lease).
    func wakeSweeper() { sweepWorker.wake() }
}

/// A worker that exists only once the node starts its background work, but that earlier-made
/// services may already want to wake.
private final class WorkerHandle: Sendable {
    private let worker = Mutex<PeriodicWorker?>(nil)

    func set(_ worker: PeriodicWorker) { self.worker.withLock { $0 = worker } }

    func wake() { worker.withLock { $0 }?.wake() }
}

/// Webhook POSTs over libcurl.
struct CurlWebhookTransport: WebhookTransport {
    func post(url: String, headers: [(name: String, value: String)], body: [UInt8], timeoutMilliseconds: Int) throws
        -> Int
    {
        try HTTPClient.send(
            OutgoingRequest(
                url: url,
                method: "POST",
                headers: headers,
                body: body,
                timeoutMilliseconds: timeoutMilliseconds
            )
        ).status
    }
}
