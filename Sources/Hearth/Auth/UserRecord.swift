import Foundation

/// What the client keeps about the signed-in user, persisted as one JSON document: the
/// profile Hearth last reported and the session's tokens.
struct StoredUser: Codable, Equatable, Sendable {
    var uid: String
    var email: String?
    var isEmailVerified: Bool
    var displayName: String?
    var idToken: String
    var refreshToken: String
    /// The local instant the ID token expires.
    var idTokenExpirationDate: Date
}

/// The signed-in user of one app in ``SecureStorage``.
struct UserStore: Sendable {
    let storage: any SecureStorage
    let key: String

    func load() -> StoredUser? {
        guard let data = try? storage.read(key) else { return nil }
        return try? JSONDecoder().decode(StoredUser.self, from: data)
    }

    func save(_ record: StoredUser) throws(AuthErrorCode) {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try storage.write(try encoder.encode(record), for: key)
        } catch {
            throw AuthErrorCode(.keychainError, "Could not save the signed-in user: \(error)")
        }
    }

    func remove() throws(AuthErrorCode) {
        do {
            try storage.remove(key)
        } catch {
            throw AuthErrorCode(.keychainError, "Could not remove the signed-in user: \(error)")
        }
    }
}
