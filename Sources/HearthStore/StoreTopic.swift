/// A kind of change that every node sharing the store hears of as soon as it is committed
/// (`Store.watch`), so that what they keep in memory follows without waiting for a reload.
public struct StoreTopic: Sendable, Hashable {
    /// The PostgreSQL notification channel.
    let channel: String

    /// A project saved or deleted.
    public static let projects = StoreTopic(channel: "hearth_projects")
    /// A signing key made or retired.
    public static let signingKeys = StoreTopic(channel: "hearth_signing_keys")
    /// A lease released, free for another node to take now rather than at its expiry.
    public static let leases = StoreTopic(channel: "hearth_leases")
}

private let notifyChannel = SQLStatement("SELECT pg_notify(?, '')")

extension WriteTransaction {
    /// Tells the nodes watching `topic` of this write once it commits (nothing if it rolls
    /// back). On SQLite nobody is told: every node on one SQLite file is this process or a
    /// command-line tool, and they reload periodically.
    public func announce(_ topic: StoreTopic) throws(StoreError) {
        guard connection.dialect == .postgres else { return }
        try connection.execute(notifyChannel, [.text(topic.channel)])
    }
}
