public import HearthStore

/// Sends a node's own messages as soon as the write that queued them is durable, without the
/// delivery workers having to find them in the outbox first. Implemented by `HearthMail`'s
/// `Mailer`.
///
/// A message handed over this way is written already claimed by this node (state `sending`,
/// with a claim that lapses like any other), so no worker elsewhere takes it meanwhile, and
/// the worker that sends it needs no claiming write. If the node dies before sending it, the
/// claim lapses and any worker sends it: delivery stays at least once.
public protocol MailDispatcher: Sendable {
    /// Makes `record`, before it is written, this node's to send; leaves it unchanged when
    /// this node is not sending mail now (it is then found by polling, like any message).
    /// In place: the record is a large value, and this runs inside the queuing write.
    func claim(_ record: inout OutboxRecord)

    /// The write that stored `mail.record` (as `claim` left it) is durable: send it. Called
    /// from a deferred write's completion, on the store's own thread: must not wait for the
    /// store (a write made and awaited there would wait for that very thread).
    func deliver(_ mail: QueuedMail)
}

/// A message a write queued, on its way from that write to the worker that sends it: passed
/// by reference, as one count, where copies of the record (two dozen fields) would count
/// every field at each step.
public final class QueuedMail: Sendable {
    public let record: OutboxRecord
    /// The mail `record` was made from, if the queuing side has it: sending then need not
    /// read the record's addresses and values back from their stored form.
    public let composed: ComposedMail?

    public init(record: OutboxRecord, composed: ComposedMail? = nil) {
        self.record = record
        self.composed = composed
    }
}
