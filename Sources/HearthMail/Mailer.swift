import Dispatch
public import HearthBase
public import HearthCore
import HearthNetwork
public import HearthStore
import Synchronization

/// A node's mail: composes messages (`composer`), queues them in the store, and delivers
/// the outbox with worker threads.
///
/// Delivery is at least once. A worker claims due messages for `claimMilliseconds` in one
/// statement (so no two workers, here or on other nodes, send a message at the same time),
/// sends each through its project's transport and records the outcome. A failure is retried
/// on the `RetrySchedule` until the message's deadline; a permanent refusal (SMTP 5xx) fails
/// it at once. If the node dies mid-send, the claim lapses and another worker sends the
/// message again, with the same `Message-ID`, so receivers can tell it is a duplicate.
public final class Mailer: Sendable {
    public let composer = TemplateComposer()
    public let configuration: MailDeliveryConfiguration
    let store: any Store
    let clock: any Clock
    let log: Log
    let projects: ProjectDirectory
    /// Seals the values of queued messages; opened here only to deliver them.
    public let seal: MailSeal
    /// Identifies this process's claims (`claimed_by`): host, process and a random part.
    let nodeName: String
    /// Claims on messages handed over by this node's writes are held in this name
    /// (`claimed_by`; see `MailDispatcher`).
    let dispatchWorker: String
    private let chooseTransport: @Sendable (String) -> any MailTransport
    /// The delivery workers.
    private let workers = Mutex<[PeriodicWorker]>([])
    private let isStopping = Atomic<Bool>(false)
    /// The finish time before which this mailer has purged bodies (0: not yet since it started).
    private let purgedBefore = Atomic<Int64>(0)
    /// How far back of the previous purge a purge looks again.
    static let purgeOverlapMilliseconds: Int64 = 10 * 60_000
    /// Whether the workers run, so messages may be handed to them (`MailDispatcher`).
    let isRunning = Atomic<Bool>(false)
    /// Messages handed over by committed writes, oldest first, waiting for a worker.
    let handedOver = Mutex<[QueuedMail]>([])
    /// Set by `wake()`: the next worker round looks in the outbox even if it looked recently.
    private let lookRequested = Atomic<Bool>(false)
    /// Whose turn it is to be woken by `wakeOneWorker`.
    private let nextWake = Atomic<Int>(0)
    private let lastDeadlineSweep = Atomic<Int64>(.min / 2)
    static let deadlineSweepMilliseconds: Int64 = 5_000
    /// Deliveries made whose record the store did not take (it could not write), by message,
    /// with their transport: kept until it does, so a message whose claim lapses meanwhile is
    /// recorded as sent instead of being sent again.
    let unrecordedDeliveries = Mutex<[OutboxRecord.Key: String]>([:])
    /// Whether the store's refusal of outbox writes was logged (once per episode).
    private let outboxUnavailableLogged = Atomic<Bool>(false)

    public convenience init(
        store: any Store,
        clock: any Clock,
        log: Log,
        projects: ProjectDirectory,
        seal: MailSeal,
        configuration: MailDeliveryConfiguration
    ) {
        let logTransport = LogTransport(log: log, developmentProjectID: configuration.keepBodiesOfProject)
        self.init(
            store: store,
            clock: clock,
            log: log,
            projects: projects,
            seal: seal,
            configuration: configuration
        ) {
            projectID in
            guard let settings = projects.project(projectID)?.settings.mail.smtp ?? configuration.defaultSMTP else {
                return logTransport
            }
            return SMTPTransport(configuration: configuration.smtpConfiguration(settings))
        }
    }

    /// A mailer whose transport for a project is chosen by `transport` (tests).
    init(
        store: any Store,
        clock: any Clock,
        log: Log,
        projects: ProjectDirectory,
        seal: MailSeal,
        configuration: MailDeliveryConfiguration,
        transport: @escaping @Sendable (String) -> any MailTransport
    ) {
        self.store = store
        self.clock = clock
        self.log = log
        self.projects = projects
        self.seal = seal
        self.configuration = configuration
        self.chooseTransport = transport
        nodeName = NodeName.make()
        dispatchWorker = "\(nodeName)#direct"
    }

    /// Starts the delivery workers. (Clean-up, `removeFinishedMessages`, is the node's to
    /// schedule: one node at a time does it.)
    public func start() {
        isStopping.store(false, ordering: .relaxed)
        if configuration.defaultSMTP == nil {
            // Production projects without SMTP would put their links (secrets) in the log.
            for project in projects.all
            where project.settings.mail.smtp == nil && project.id != configuration.keepBodiesOfProject {
                log.warning(
                    "project \(project.id) has no SMTP server and hearth serve has no --smtp: its mail stays in the outbox, unsent",
                    ["project": .string(project.id)]
                )
            }
        }
        var started: [PeriodicWorker] = []
        isRunning.store(true, ordering: .relaxed)
        for index in 0..<max(1, configuration.workerCount) {
            let worker = "\(nodeName)#\(index)"
            let lastLook = Atomic<UInt64>(0)
            started.append(
                PeriodicWorker(named: "mail-send-\(index)", intervalMilliseconds: configuration.pollMilliseconds) {
                    [self] in
                    while !isStopping.load(ordering: .relaxed) && deliverHandedOverMessages() > 0 {}
                    // Handed-over messages wake the workers many times a second under load;
                    // the outbox itself is looked at once per interval (or when asked).
                    let now = DispatchTime.now().uptimeNanoseconds
                    let interval = UInt64(configuration.pollMilliseconds) * 1_000_000
                    guard
                        lookRequested.exchange(false, ordering: .relaxed)
                            || now &- lastLook.load(ordering: .relaxed) >= interval
                    else { return }
                    lastLook.store(now, ordering: .relaxed)
                    // Between batches from the outbox this worker also takes what was handed
                    // over meanwhile: only one worker is woken per hand-over, and it may be
                    // this one, busy with a backlog.
                    while !isStopping.load(ordering: .relaxed) && deliverDueMessages(worker: worker) > 0 {
                        while !isStopping.load(ordering: .relaxed) && deliverHandedOverMessages() > 0 {}
                    }
                }
            )
        }
        workers.withLock { $0 = started }
    }

    /// Stops the workers after the messages in their hands; the rest stay queued.
    public func stop() {
        isRunning.store(false, ordering: .relaxed)
        isStopping.store(true, ordering: .relaxed)
        let running = workers.withLock { workers in
            defer { workers = [] }
            return workers
        }
        for worker in running { worker.stop() }
        releaseHandedOverMessages()
    }

    /// Lets the workers look for due messages now (after queueing one).
    public func wake() {
        lookRequested.store(true, ordering: .relaxed)
        for worker in workers.withLock({ $0 }) { worker.wake() }
    }

    /// Wakes the delivery workers in turn, one per call.
    func wakeOneWorker() {
        let turn = nextWake.add(1, ordering: .relaxed).oldValue
        let worker = workers.withLock { workers in
            workers.isEmpty ? nil : workers[turn % workers.count]
        }
        worker?.wake()
    }

    /// One round of `worker`: fails messages past their deadline, claims a batch of due
    /// messages and delivers them. Answers how many it claimed.
    @discardableResult
    public func deliverDueMessages(worker: String) -> Int {
        let now = clock.nowMilliseconds()
        let configuration = configuration
        recordUnrecordedDeliveries()
        do {
            guard try store.read({ try $0.hasDueOutboxMessages(now: now) }) else { return 0 }
            // Deadlines are swept at most every few seconds, not with every claim: under load
            // the claims come many times a second and the sweep need not.
            let sweepsDeadlines = now - lastDeadlineSweep.load(ordering: .relaxed) >= Self.deadlineSweepMilliseconds
            if sweepsDeadlines { lastDeadlineSweep.store(now, ordering: .relaxed) }
            let claimed = try store.write { transaction in
                if sweepsDeadlines {
                    try transaction.expireOutboxMessages(
                        now: now,
                        createdBefore: now - configuration.maximumAgeMilliseconds
                    )
                }
                return try transaction.claimOutboxMessages(
                    now: now,
                    claimedUntil: now + configuration.claimMilliseconds,
                    worker: worker,
                    limit: configuration.batchSize
                )
            }
            record(sendWhileClaimed(claimed.map { ($0, nil) }), worker: worker)
            return claimed.count
        } catch {
            noteOutboxUnavailable("mail outbox unavailable", error)
            return 0
        }
    }

    /// Logs the first failure of an episode in which the store refuses outbox writes.
    private func noteOutboxUnavailable(_ message: String, _ error: any Error) {
        guard !outboxUnavailableLogged.exchange(true, ordering: .relaxed) else { return }
        log.warning(message, ["error": .string(String(describing: error))])
    }

    /// Records the deliveries the store could not take before, if it takes them now.
    func recordUnrecordedDeliveries() {
        let pending = unrecordedDeliveries.withLock { $0 }
        guard !pending.isEmpty else { return }
        let sentGroups = SentGroup.grouping(pending.map { ($0.key, $0.value) })
        let now = clock.nowMilliseconds()
        do {
            try store.write { transaction in try SentGroup.record(sentGroups, in: transaction, at: now) }
            unrecordedDeliveries.withLock { kept in for message in pending.keys { kept[message] = nil } }
            if outboxUnavailableLogged.exchange(false, ordering: .relaxed) {
                log.info("mail outbox writable again", ["recordedDeliveries": .int(Int64(pending.count))])
            }
        } catch {
            noteOutboxUnavailable("cannot record mail deliveries", error)
        }
    }

    /// Sends `messages` in order, each with the mail it was composed from if known, as long as
    /// its claim has half its time left, and answers the outcomes of those sent. A send takes
    /// at most half a claim (the transport's timeout), so no other worker takes a message
    /// while it is being sent, however slow the server; the messages not sent are left to
    /// their claims, which lapse and let any worker send them.
    func sendWhileClaimed(
        _ messages: [(record: OutboxRecord, composed: ComposedMail?)]
    ) -> [(OutboxRecord, (transport: String, result: Result<Void, any Error>))] {
        messages.compactMap { record, composed in
            guard (record.claimedUntil ?? 0) - clock.nowMilliseconds() >= configuration.claimMilliseconds / 2 else {
                return nil
            }
            return (record, send(record, composed: composed))
        }
    }

    /// Hands one message to its transport; `composed` is the mail it was made from, if known.
    func send(
        _ record: OutboxRecord,
        composed: ComposedMail? = nil
    ) -> (transport: String, result: Result<Void, any Error>) {
        let transport = chooseTransport(record.projectID)
        // Sent already, the store not yet told: recorded as sent, not sent again.
        if let sentBy = unrecordedDeliveries.withLock({ $0[record.key] }) { return (sentBy, .success(())) }
        do {
            // A message handed over by its write comes with its mail; one read back from the
            // store has its values sealed.
            let outgoing =
                try composed.map { mail throws(MailError) in try OutgoingMail(record, composed: mail) }
                ?? OutgoingMail(try record.opened(with: seal))
            try transport.deliver(outgoing)
            return (transport.name, .success(()))
        } catch {
            return (transport.name, .failure(error))
        }
    }

    /// Records the outcomes of one claimed batch in one write: sent, rescheduled after a
    /// transient failure, or failed for good.
    func record(
        _ outcomes: [(OutboxRecord, (transport: String, result: Result<Void, any Error>))],
        worker: String
    ) {
        let now = clock.nowMilliseconds()
        var changes: [OutboxOutcome] = []
        for (record, (transport, result)) in outcomes {
            switch result {
            case .success:
                changes.append(.sent(record.key, transport: transport))
            case .failure(let error as NetworkError) where error.kind != .rejected:
                let deadline = min(record.expiresAt, record.createdAt + configuration.maximumAgeMilliseconds)
                let delay =
                    configuration.retry.delayMilliseconds(
                        afterFailedAttempts: record.attempts,
                        random: Double.random(in: 0...1)
                    ) ?? configuration.retry.maximumMilliseconds
                // Past the deadline, the next round marks it failed with this error.
                let next = min(now + delay, deadline)
                changes.append(
                    .retry(record.key, holder: record.claimedBy ?? worker, at: next, error: error.message)
                )
                log.warning(
                    "mail delivery failed; will retry",
                    [
                        "mailId": .string(record.id), "attempt": .int(Int64(record.attempts)),
                        "retryInMillis": .int(next - now), "transport": .string(transport),
                        "error": .string(error.message),
                    ]
                )
            case .failure(let error):
                let message = (error as? NetworkError)?.message ?? String(describing: error)
                changes.append(.failed(record.key, holder: record.claimedBy ?? worker, error: message))
                log.warning(
                    "mail delivery failed for good",
                    ["mailId": .string(record.id), "transport": .string(transport), "error": .string(message)]
                )
            }
        }
        guard !changes.isEmpty else { return }
        let recorded = changes
        // Deliveries are recorded together per project and transport (a batch is mostly one
        // of each), failures one by one.
        let sentGroups = SentGroup.grouping(
            changes.compactMap { change in
                guard case .sent(let message, let transport) = change else { return nil }
                return (message, transport)
            }
        )
        do {
            try store.write { transaction in
                try SentGroup.record(sentGroups, in: transaction, at: now)
                for change in recorded {
                    switch change {
                    case .sent: break
                    case .retry(let message, let holder, let next, let error):
                        try transaction.rescheduleOutboxMessage(
                            message,
                            worker: holder,
                            nextAttemptAt: next,
                            error: error
                        )
                    case .failed(let message, let holder, let error):
                        try transaction.failOutboxMessage(message, worker: holder, error: error, at: now)
                    }
                }
            }
            unrecordedDeliveries.withLock { kept in
                for case .sent(let message, _) in recorded { kept[message] = nil }
            }
        } catch {
            // The deliveries are kept in memory until the store takes them; the other outcomes'
            // claims lapse and those messages are tried again: at least once, never lost.
            unrecordedDeliveries.withLock { kept in
                for case .sent(let message, let transport) in recorded { kept[message] = transport }
            }
            noteOutboxUnavailable("cannot record mail deliveries", error)
        }
    }

    /// Purges the bodies of finished messages past their retention, and deletes old ones.
    ///
    /// The purge looks only at messages finished since the previous one (less a margin for
    /// other nodes' clocks and for outcomes committed late), so a clean-up costs what finished
    /// meanwhile, not every message kept for the record; the first after a start looks at all.
    public func removeFinishedMessages() {
        let now = clock.nowMilliseconds()
        let configuration = configuration
        let purgeBefore = now - configuration.bodyRetentionMilliseconds
        let purgeSince = max(0, purgedBefore.load(ordering: .relaxed) - Self.purgeOverlapMilliseconds)
        do {
            try store.write { transaction in
                try transaction.purgeOutboxBodies(
                    finishedBefore: purgeBefore,
                    finishedSince: purgeSince,
                    keepingProject: configuration.keepBodiesOfProject
                )
                try transaction.deleteOutboxMessages(finishedBefore: now - configuration.recordRetentionMilliseconds)
            }
            purgedBefore.store(purgeBefore, ordering: .relaxed)
        } catch {
            log.warning("mail outbox clean-up failed", ["error": .string(String(describing: error))])
        }
    }
}

/// Messages whose deliveries are recorded by one statement.
private struct SentGroup: Hashable {
    var projectID: String
    var transport: String

    /// The IDs of delivered messages by project and transport.
    static func grouping(_ deliveries: [(message: OutboxRecord.Key, transport: String)]) -> [SentGroup: [String]] {
        var groups: [SentGroup: [String]] = [:]
        for (message, transport) in deliveries {
            groups[SentGroup(projectID: message.projectID, transport: transport), default: []].append(message.id)
        }
        return groups
    }

    /// Marks every group's messages sent, one statement per group.
    static func record(_ groups: [SentGroup: [String]], in transaction: WriteTransaction, at now: Int64) throws {
        for (group, ids) in groups {
            try transaction.markOutboxMessagesSent(ids, of: group.projectID, transport: group.transport, at: now)
        }
    }
}

/// What became of one claimed message.
private enum OutboxOutcome: Sendable {
    case sent(OutboxRecord.Key, transport: String)
    /// `holder`: the claim a change needs still to hold (the worker's own, or the node's
    /// claim on a handed-over message).
    case retry(OutboxRecord.Key, holder: String, at: Int64, error: String)
    case failed(OutboxRecord.Key, holder: String, error: String)
}
