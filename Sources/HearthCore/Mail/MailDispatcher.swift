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

    /// The write that stored `record` (as `claim` left it) is durable: send it. Called
    /// from a deferred write's completion, on the store's own thread: must not wait for the
    /// store (a write made and awaited there would wait for that very thread).
    func deliver(_ record: OutboxRecord)
}
