import Foundation
import Synchronization

/// The state and the calls behind one app's ``Auth``: who is signed in, the language sent with
/// each call, and the Identity Toolkit calls users and ``Auth`` make.
final class AuthSession: Sendable {
    /// An ID token is renewed when it has less than this left (FirebaseAuth's margin).
    static let idTokenRefreshMargin: TimeInterval = 5 * 60

    let backend: AuthBackend
    let now: @Sendable () -> Date
    private let store: UserStore
    private let signedIn = Mutex<User?>(nil)
    private let language: LanguageSetting

    init(app: HearthApp) {
        let options = app.options
        let language = LanguageSetting()
        self.language = language
        now = app.services.now
        store = UserStore(storage: app.services.storage, key: app.storageKey("user"))
        backend = AuthBackend(
            baseURL: options.baseURL ?? URL(fileURLWithPath: "/"),
            apiKey: options.apiKey ?? "",
            appID: options.googleAppID,
            transport: app.services.transport,
            languageCode: { language.value }
        )
        if let record = store.load() {
            let user = User(record: record, session: self)
            signedIn.withLock { $0 = user }
        }
    }

    var currentUser: User? { signedIn.withLock { $0 } }

    var languageCode: String? {
        get { language.value }
        set { language.value = newValue }
    }

    // MARK: - Signed-in user

    /// Makes the session of a sign-in answer the signed-in user, with the profile Hearth holds.
    func signIn(
        idToken: String,
        refreshToken: String,
        expiresIn: TimeInterval,
        fallbackEmail: String?
    ) async throws(AuthErrorCode) -> User {
        let expiration = now().addingTimeInterval(expiresIn)
        let profile = try await lookUp(idToken: idToken)
        let record = StoredUser(
            uid: profile.uid,
            email: profile.email ?? fallbackEmail,
            isEmailVerified: profile.isEmailVerified,
            displayName: profile.displayName,
            idToken: idToken,
            refreshToken: refreshToken,
            idTokenExpirationDate: expiration
        )
        try store.save(record)
        let user = User(record: record, session: self)
        signedIn.withLock { $0 = user }
        return user
    }

    /// Persists `record` when `user` is the signed-in user.
    func persist(_ record: StoredUser, of user: User) throws(AuthErrorCode) {
        guard currentUser === user else { return }
        try store.save(record)
    }

    /// Forgets `user` when it is the signed-in one (sign-out, deletion, a dead session).
    func signedOut(_ user: User) {
        let wasCurrent = signedIn.withLock { current in
            guard current === user else { return false }
            current = nil
            return true
        }
        if wasCurrent { try? store.remove() }
    }

    /// Signs the current user out.
    func signOut() throws(AuthErrorCode) {
        try store.remove()
        signedIn.withLock { $0 = nil }
    }

    /// A new ID token for `user`. A session Hearth ended (account deleted, disabled, tokens
    /// revoked) signs the user out.
    func renew(_ user: User, refreshToken: String) async throws(AuthErrorCode) -> RenewedTokens {
        do {
            let answer = try await backend.refresh(refreshToken)
            return RenewedTokens(
                idToken: answer.idToken,
                refreshToken: answer.refreshToken,
                expirationDate: now().addingTimeInterval(TimeInterval(answer.expiresIn) ?? 3600)
            )
        } catch {
            switch error.code {
            case .userTokenExpired, .userNotFound, .userDisabled, .invalidUserToken: signedOut(user)
            default: break
            }
            throw error
        }
    }

    struct RenewedTokens: Sendable {
        var idToken: String
        var refreshToken: String
        var expirationDate: Date
    }
}

/// `Auth.languageCode`, read by the backend at each call.
final class LanguageSetting: Sendable {
    private let code = Mutex<String?>(nil)

    var value: String? {
        get { code.withLock { $0 } }
        set { code.withLock { $0 = newValue } }
    }
}
