import Foundation
import Synchronization

/// A signed-in account: its profile as Hearth last reported it and the session that keeps
/// its ID token fresh.
///
/// Spelled as FirebaseAuth's `User` is. The profile changes when ``reload()`` reads it again.
public final class User: Sendable {
    private let session: AuthSession
    private let record: Mutex<StoredUser>

    init(record: StoredUser, session: AuthSession) {
        self.record = Mutex(record)
        self.session = session
    }

    /// The account's ID, stable for its life.
    public var uid: String { record.withLock { $0.uid } }
    /// The account's email address.
    public var email: String? { record.withLock { $0.email } }
    /// Whether the email address was verified.
    public var isEmailVerified: Bool { record.withLock { $0.isEmailVerified } }
    /// The account's display name.
    public var displayName: String? { record.withLock { $0.displayName } }

    var snapshot: StoredUser { record.withLock { $0 } }

    /// Reads the account's profile from Hearth again (after the email was verified elsewhere,
    /// for instance).
    public func reload() async throws {
        let idToken = try await getIDToken()
        let profile = try await session.lookUp(idToken: idToken)
        try update { record in
            record.email = profile.email
            record.isEmailVerified = profile.isEmailVerified
            record.displayName = profile.displayName
        }
    }

    /// The user's ID token, renewed when it has less than five minutes left.
    public func getIDToken() async throws -> String {
        try await getIDTokenForcingRefresh(false)
    }

    /// The user's ID token; with `forceRefresh` a new one whatever the current one's expiry.
    public func getIDTokenForcingRefresh(_ forceRefresh: Bool) async throws -> String {
        let current = snapshot
        if !forceRefresh,
            current.idTokenExpirationDate.timeIntervalSince(session.now()) > AuthSession.idTokenRefreshMargin
        {
            return current.idToken
        }
        let renewed = try await session.renew(self, refreshToken: current.refreshToken)
        try update { record in
            record.idToken = renewed.idToken
            record.refreshToken = renewed.refreshToken
            record.idTokenExpirationDate = renewed.expirationDate
        }
        return renewed.idToken
    }

    /// Sends the email that verifies the user's address; `actionCodeSettings` says where the
    /// link continues and whether an app opens it.
    public func sendEmailVerification(with actionCodeSettings: ActionCodeSettings? = nil) async throws {
        let idToken = try await getIDToken()
        try await session.sendVerification(idToken: idToken, newEmail: nil, settings: actionCodeSettings)
    }

    /// Sends, to `beforeUpdatingEmail`, the email whose link changes the user's address to it
    /// once opened.
    public func sendEmailVerification(
        beforeUpdatingEmail newEmail: String,
        actionCodeSettings: ActionCodeSettings? = nil
    ) async throws {
        let idToken = try await getIDToken()
        try await session.sendVerification(idToken: idToken, newEmail: newEmail, settings: actionCodeSettings)
    }

    /// Deletes the account; the user is signed out.
    public func delete() async throws {
        let idToken = try await getIDToken()
        try await session.deleteAccount(idToken: idToken)
        session.signedOut(self)
    }

    /// Applies a change to the record and persists it when this is the signed-in user.
    func update(_ change: (inout StoredUser) -> Void) throws(AuthErrorCode) {
        let updated = record.withLock { record in
            change(&record)
            return record
        }
        try session.persist(updated, of: self)
    }
}
