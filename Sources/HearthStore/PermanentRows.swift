/// Rows the writer has seen committed that nothing ever deletes (mail templates, stored
/// under the hash of their content): a write can skip inserting one again, a statement saved
/// for every message after a template's first. Kept by the group-commit writer for its
/// connection and used on its thread only.
///
/// A key noted during a transaction counts as stored for the rest of that transaction, and
/// for later ones only once the transaction commits: a savepoint rolled back, or a group
/// rolled back, forgets what it noted.
final class PermanentRows: @unchecked Sendable {
    struct Key: Hashable {
        let table: String
        let key: [UInt8]
    }

    /// Remembered keys at most; past this, inserts simply run again.
    static let capacity = 4_096

    private var committed: Set<Key> = []
    private var noted: [Key] = []

    /// Whether `key` of `table` is known to be stored.
    func contains(_ table: String, _ key: [UInt8]) -> Bool {
        let entry = Key(table: table, key: key)
        return committed.contains(entry) || noted.contains(entry)
    }

    /// Notes that the open transaction has stored `key` of `table`.
    func note(_ table: String, _ key: [UInt8]) {
        guard committed.count + noted.count < Self.capacity else { return }
        noted.append(Key(table: table, key: key))
    }

    /// A mark to roll back to (`rollBack(to:)`) when a savepoint is undone.
    var mark: Int { noted.count }

    func rollBack(to mark: Int) { noted.removeSubrange(min(mark, noted.count)...) }

    func transactionCommitted() {
        committed.formUnion(noted)
        noted.removeAll(keepingCapacity: true)
    }

    func transactionRolledBack() { noted.removeAll(keepingCapacity: true) }
}
