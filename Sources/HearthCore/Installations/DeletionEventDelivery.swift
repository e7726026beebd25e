public import HearthBase
import HearthCrypto
public import HearthStore

/// Sends an HTTP POST for a webhook. Implemented over libcurl by the server; the domain only
/// needs the answer's status.
public protocol WebhookTransport: Sendable {
    /// POSTs `body` to `url` and answers the HTTP status; throws when no answer came
    /// (connection refused, timeout, TLS failure).
    func post(url: String, headers: [(name: String, value: String)], body: [UInt8], timeoutMilliseconds: Int) throws
        -> Int
}

/// Delivers deletion events to subscribed services: claims due deliveries under a lease (so
/// two nodes on one database never send the same one at once), POSTs each signed event,
/// and records the outcome — delivered on a 2xx, otherwise retried on the ``RetrySchedule``
/// until it gives up. Delivery is at least once: a node that dies after sending but before
/// recording sends again when its lease runs out, with the same `Hearth-Delivery-Id`.
///
/// The body is `{"fid":…,"appId":…,"projectNumber":"…","deletedAt":"<RFC 3339>","cause":…}`
/// with `cause` one of `client`, `admin`, `inactivity`; headers `Hearth-Event:
/// installation.deleted`, `Hearth-Delivery-Id` and `Hearth-Signature` (``WebhookSignature``).
public final class DeletionEventDelivery: Sendable {
    public struct Settings: Sendable, Equatable {
        public var retry: RetrySchedule
        /// Deliveries claimed at a time.
        public var batchSize: Int
        public var timeoutMilliseconds: Int
        /// A run claims no more and sends no more once it has lasted this long, so stopping
        /// the node waits for at most one request; what is left is due again at once.
        public var maximumRunMilliseconds: Int64

        public init(
            retry: RetrySchedule = RetrySchedule(
                baseMilliseconds: 30_000,
                maximumMilliseconds: 6 * 3_600_000,
                maximumAttempts: 20
            ),
            batchSize: Int = 16,
            timeoutMilliseconds: Int = 10_000,
            maximumRunMilliseconds: Int64 = 5_000
        ) {
            self.retry = retry
            self.batchSize = batchSize
            self.timeoutMilliseconds = timeoutMilliseconds
            self.maximumRunMilliseconds = maximumRunMilliseconds
        }

        /// A claim outlives the slowest possible batch, so a live node never loses its lease.
        var leaseMilliseconds: Int64 { Int64(batchSize * timeoutMilliseconds) + 30_000 }
    }

    private let store: any Store
    private let clock: any Clock
    private let projects: ProjectDirectory
    private let webhooks: InstallationWebhooks
    private let transport: any WebhookTransport
    private let settings: Settings
    private let log: Log
    /// This node's name on the leases it takes.
    public let nodeID: String

    public init(
        store: any Store,
        clock: any Clock,
        projects: ProjectDirectory,
        webhooks: InstallationWebhooks,
        transport: any WebhookTransport,
        settings: Settings = Settings(),
        log: Log,
        nodeID: String? = nil
    ) {
        self.store = store
        self.clock = clock
        self.projects = projects
        self.webhooks = webhooks
        self.transport = transport
        self.settings = settings
        self.log = log
        self.nodeID = nodeID ?? "node-" + Hex.encode(SecureRandom.bytes(count: 8))
    }

    /// Sends every delivery due now (up to a bounded number of batches); answers how many
    /// attempts were made.
    @discardableResult
    public func deliverDue(maximumBatches: Int = 64) throws -> Int {
        var attempted = 0
        let deadline = clock.nowMilliseconds() + settings.maximumRunMilliseconds
        for _ in 0..<maximumBatches {
            let now = clock.nowMilliseconds()
            guard now < deadline else { break }
            // A read first, so an idle node polls without taking the write lock.
            guard try store.read({ try $0.hasDueInstallationDelivery(now: now) }) else { break }
            let owner = nodeID
            let leaseUntil = now + settings.leaseMilliseconds
            let limit = settings.batchSize
            let claimed = try store.write { transaction in
                try transaction.claimInstallationDeliveries(
                    owner: owner,
                    now: now,
                    leaseUntil: leaseUntil,
                    limit: limit
                )
            }
            if claimed.isEmpty { break }
            for delivery in claimed {
                guard clock.nowMilliseconds() < deadline else {
                    let now = clock.nowMilliseconds()
                    try store.write { try $0.releaseInstallationDeliveries(owner: owner, now: now) }
                    return attempted
                }
                try attempt(delivery)
                attempted += 1
            }
        }
        return attempted
    }

    private func attempt(_ delivery: ClaimedInstallationDelivery) throws {
        let tombstone = delivery.tombstone
        var status: Int?
        var failure: String?
        if let project = projects.project(tombstone.projectID) {
            do {
                let secret = try webhooks.secret(webhookID: delivery.webhookID, sealed: delivery.sealedSecret)
                let body = Self.body(of: tombstone, projectNumber: project.number)
                let headers: [(name: String, value: String)] = [
                    ("Content-Type", "application/json"),
                    ("User-Agent", "Hearth-Webhooks"),
                    ("Hearth-Event", "installation.deleted"),
                    ("Hearth-Delivery-Id", "\(delivery.webhookID):\(tombstone.fid)"),
                    (
                        WebhookSignature.headerName,
                        WebhookSignature.header(secret: secret, timestamp: clock.nowSeconds(), body: body)
                    ),
                ]
                status = try transport.post(
                    url: delivery.url,
                    headers: headers,
                    body: body,
                    timeoutMilliseconds: settings.timeoutMilliseconds
                )
                if let status, !(200..<300).contains(status) { failure = "HTTP \(status)" }
            } catch {
                failure = String(describing: error)
            }
        } else {
            failure = "project \(tombstone.projectID) is gone"
        }

        let now = clock.nowMilliseconds()
        let state: InstallationDeliveryRecord.State
        var nextAttempt = now
        if failure == nil {
            state = .delivered
        } else if let delay = settings.retry.delayMilliseconds(
            afterFailedAttempts: delivery.attempts + 1,
            random: Double.random(in: 0...1)
        ) {
            state = .pending
            nextAttempt = now + delay
        } else {
            state = .failed
        }
        if let failure {
            log.warning(
                state == .failed ? "webhook delivery given up" : "webhook delivery failed; will retry",
                [
                    "webhookId": .string(delivery.webhookID), "fid": .string(tombstone.fid),
                    "attempt": .int(Int64(delivery.attempts + 1)), "error": .string(failure),
                ]
            )
        }
        let owner = nodeID
        let webhookID = delivery.webhookID
        let error = failure.map { String($0.prefix(500)) }
        let (answeredStatus, retryAt) = (status, nextAttempt)
        try store.write { transaction in
            try transaction.recordInstallationDeliveryAttempt(
                webhookID: webhookID,
                fid: tombstone.fid,
                owner: owner,
                state: state,
                status: answeredStatus,
                error: error,
                at: now,
                nextAttempt: retryAt
            )
        }
    }

    /// The event's JSON body.
    static func body(of tombstone: InstallationTombstoneRecord, projectNumber: String) -> [UInt8] {
        var deletedAt: [UInt8] = []
        Timestamp.appendISO8601(milliseconds: tombstone.deletedMilliseconds, to: &deletedAt)
        var writer = JSONWriter(reservingCapacity: 192)
        writer.beginObject()
        writer.key("fid")
        writer.string(tombstone.fid)
        writer.key("appId")
        writer.string(tombstone.appID)
        writer.key("projectNumber")
        writer.string(projectNumber)
        writer.key("deletedAt")
        writer.string(String(decoding: deletedAt, as: UTF8.self))
        writer.key("cause")
        writer.string(tombstone.cause)
        writer.endObject()
        return writer.bytes
    }
}
