import HearthBase
public import HearthCore
public import HearthStore
import Synchronization

/// Messages handed straight from the writes that queue them (`MailDispatcher`): written
/// already claimed by this node, sent by the next free worker without a claiming write, and
/// given back to the outbox if the mailer stops first.
extension Mailer: MailDispatcher {
    /// Handed-over messages a worker sends before recording their outcomes in one write.
    static let handOverBatch = 32

    /// Handed-over messages kept waiting at most; past this a message is left to its claim,
    /// which lapses (`claimMilliseconds`) and lets any worker send it.
    static let handOverCapacity = 10_000

    public func claim(_ record: inout OutboxRecord) {
        guard isRunning.load(ordering: .relaxed) else { return }
        record.state = .sending
        record.attempts = 1
        record.claimedBy = dispatchWorker
        record.claimedUntil = record.createdAt + configuration.claimMilliseconds
        record.nextAttemptAt = record.createdAt + configuration.claimMilliseconds
    }

    public func deliver(_ mail: QueuedMail) {
        guard mail.record.claimedBy == dispatchWorker else { return }  // not claimed: workers find it
        guard isRunning.load(ordering: .relaxed) else {
            releaseClaims(of: [mail.record], waiting: false)
            return
        }
        // Only a hand-over into an empty queue wakes a worker (one): a non-empty queue has a
        // worker on its way, which takes everything queued by the time it gets there. Under
        // load that makes batches instead of a wake, and an outcome write, per message.
        let wakes = handedOver.withLock { queue in
            guard queue.count < Self.handOverCapacity else { return false }
            queue.append(mail)
            return queue.count == 1
        }
        if wakes { wakeOneWorker() }
    }

    /// Sends a batch of handed-over messages and records the outcomes; answers how many it
    /// took from the queue.
    ///
    /// A message that waited so long that less than half of its claim is left is not sent
    /// from here (`sendWhileClaimed`): its claim could lapse mid-send and another worker take
    /// it too. It is left to the claim, after which any worker sends it.
    func deliverHandedOverMessages() -> Int {
        let taken = handedOver.withLock { queue -> [QueuedMail] in
            if queue.count <= Self.handOverBatch {
                defer { queue.removeAll(keepingCapacity: true) }
                return queue
            }
            defer { queue.removeFirst(Self.handOverBatch) }
            return Array(queue.prefix(Self.handOverBatch))
        }
        let outcomes = sendWhileClaimed(taken.map { ($0.record, $0.composed) })
        if !outcomes.isEmpty { record(outcomes, worker: dispatchWorker) }
        return taken.count
    }

    /// Gives the handed-over messages nobody sent back to the outbox (the mailer stops).
    func releaseHandedOverMessages() {
        let left = handedOver.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
        if !left.isEmpty { releaseClaims(of: left.map(\.record), waiting: true) }
    }

    /// Puts `records` back in the outbox. `waiting` returns once that is durable; otherwise
    /// the write is queued (for `deliver`, which runs on the store's thread).
    private func releaseClaims(of records: [OutboxRecord], waiting: Bool) {
        let messages = records.map(\.key)
        let worker = dispatchWorker
        let now = clock.nowMilliseconds()
        let release: @Sendable (WriteTransaction) throws -> Void = { transaction in
            for message in messages { try transaction.releaseOutboxClaim(message, worker: worker, at: now) }
        }
        guard waiting else {
            store.enqueueWrite(release)  // a failure is reported by the store; the claims lapse
            return
        }
        do {
            try store.write(release)
        } catch {
            // The claims lapse instead, and the messages are sent then: later, not lost.
            log.warning(
                "cannot give handed-over mail back to the outbox",
                ["count": .int(Int64(messages.count)), "error": .string(String(describing: error))]
            )
        }
    }
}
