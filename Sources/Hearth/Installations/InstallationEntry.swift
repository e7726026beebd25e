import Foundation

/// What the client keeps about its installation, persisted as one JSON document.
///
/// An entry is *unregistered* (a FID made locally, not yet known to Hearth) or *registered*
/// (Hearth answered with the FID it keeps, a refresh token and a first auth token).
struct InstallationEntry: Codable, Equatable, Sendable {
    /// An auth token and the local instant it stops being valid.
    struct AuthToken: Codable, Equatable, Sendable {
        var token: String
        var expirationDate: Date
    }

    var fid: String
    /// Set once Hearth registered the installation.
    var refreshToken: String?
    var authToken: AuthToken?

    var isRegistered: Bool { refreshToken != nil }

    /// A new, unregistered entry with a FID made here.
    static func unregistered(fid: String) -> InstallationEntry {
        InstallationEntry(fid: fid, refreshToken: nil, authToken: nil)
    }

    /// Whether the token is still good at `now` with more than `margin` to spare.
    func hasToken(validAt now: Date, margin: TimeInterval) -> Bool {
        guard let authToken else { return false }
        return authToken.expirationDate.timeIntervalSince(now) > margin
    }
}

/// The entry of one app in ``SecureStorage``.
struct InstallationStore: Sendable {
    let storage: any SecureStorage
    let key: String

    func load() throws(InstallationsErrorCode) -> InstallationEntry? {
        do {
            guard let data = try storage.read(key) else { return nil }
            return try JSONDecoder().decode(InstallationEntry.self, from: data)
        } catch let error as DecodingError {
            // An entry that cannot be read is replaced by a new installation, never trusted.
            _ = error
            try? storage.remove(key)
            return nil
        } catch {
            throw InstallationsErrorCode(.keychain, "Could not read the installation entry: \(error)")
        }
    }

    func save(_ entry: InstallationEntry) throws(InstallationsErrorCode) {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try storage.write(try encoder.encode(entry), for: key)
        } catch {
            throw InstallationsErrorCode(.keychain, "Could not save the installation entry: \(error)")
        }
    }

    func remove() throws(InstallationsErrorCode) {
        do {
            try storage.remove(key)
        } catch {
            throw InstallationsErrorCode(.keychain, "Could not remove the installation entry: \(error)")
        }
    }
}
