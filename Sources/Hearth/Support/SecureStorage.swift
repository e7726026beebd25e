import Foundation

/// Keeps small secret entries (the installation entry, the signed-in user) under string keys.
///
/// Contract: ``write(_:for:)`` replaces an entry atomically (a reader sees the old entry or the
/// new one, never a mix, even if the process dies mid-write), and only the current user can
/// read what was written. A missing entry reads as nil and removing it is not an error; keys
/// are independent. Every implementation — ``FileStorage`` everywhere, `KeychainStorage`
/// where the Security framework exists — runs `SecureStorageContractTests` (HearthTests).
protocol SecureStorage: Sendable {
    /// The entry under `key`, or nil when there is none.
    func read(_ key: String) throws -> Data?
    /// Stores `data` under `key`, replacing any entry there.
    func write(_ data: Data, for key: String) throws
    /// Removes the entry under `key`; removing a missing entry is not an error.
    func remove(_ key: String) throws
}

/// A storage failure, with the path or item it concerns.
struct StorageError: Error, CustomStringConvertible {
    let description: String
}
