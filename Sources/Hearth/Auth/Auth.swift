import Foundation

/// Email and password accounts and email actions (verification, password reset, email-link
/// sign-in, email change) for one app.
///
/// Spelled as FirebaseAuth's `Auth` is. The signed-in user is kept across launches (Keychain
/// on Apple platforms, a 0600 file in the user's data directory elsewhere) and is
/// ``currentUser`` until ``signOut()``. Every failure is an ``AuthErrorCode``.
public final class Auth: Sendable {
    let session: AuthSession

    init(app: HearthApp) {
        session = AuthSession(app: app)
    }

    /// The auth of the default app. Calling it before ``HearthApp/configure(options:)`` is a
    /// programming error.
    public static func auth() -> Auth {
        guard let app = HearthApp.app() else {
            preconditionFailure("Call HearthApp.configure(options:) before Auth.auth().")
        }
        return auth(app: app)
    }

    /// The auth of `app` (one instance per app).
    public static func auth(app: HearthApp) -> Auth { app.auth() }

    /// The signed-in user, or nil.
    public var currentUser: User? { session.currentUser }

    /// The language of emails and pages Hearth makes for this app's calls (`it`, `fa`), sent
    /// as `X-Firebase-Locale`; nil lets Hearth choose.
    public var languageCode: String? {
        get { session.languageCode }
        set { session.languageCode = newValue }
    }

    /// Creates an account and signs it in.
    public func createUser(withEmail email: String, password: String) async throws -> AuthDataResult {
        try await session.signUp(email: email, password: password)
    }

    /// Signs in with an email and password.
    public func signIn(withEmail email: String, password: String) async throws -> AuthDataResult {
        try await session.signIn(email: email, password: password)
    }

    /// Sends the password-reset email; `actionCodeSettings` says where its link continues.
    public func sendPasswordReset(withEmail email: String, actionCodeSettings: ActionCodeSettings? = nil)
        async throws
    {
        try await session.sendPasswordReset(email: email, settings: actionCodeSettings)
    }

    /// Sends the email whose link signs in; `actionCodeSettings.handleCodeInApp` must be true
    /// (the app completes the sign-in with ``signIn(withEmail:link:)``).
    public func sendSignInLink(toEmail email: String, actionCodeSettings: ActionCodeSettings) async throws {
        guard actionCodeSettings.handleCodeInApp else {
            throw AuthErrorCode(.argumentError, "An email sign-in link needs handleCodeInApp set to true.")
        }
        try await session.sendSignInLink(email: email, settings: actionCodeSettings)
    }

    /// Whether `link` is an email sign-in link (bare, or wrapped as `…/__/auth/links?link=…`).
    public func isSignIn(withEmailLink link: String) -> Bool {
        ActionCodeURL(link: link)?.operation == .emailLink
    }

    /// Signs in with the sign-in link sent to `email`.
    public func signIn(withEmail email: String, link: String) async throws -> AuthDataResult {
        guard let url = ActionCodeURL(link: link), url.operation == .emailLink else {
            throw AuthErrorCode(.argumentError, "The link is not an email sign-in link.")
        }
        return try await session.signIn(email: email, code: url.code)
    }

    /// What an action code is for and whom it concerns, without using it.
    public func checkActionCode(_ code: String) async throws -> ActionCodeInfo {
        try await session.checkActionCode(code)
    }

    /// Uses an email verification, email change or email recovery code.
    public func applyActionCode(_ code: String) async throws {
        try await session.applyActionCode(code)
    }

    /// The email a password-reset code is for, without using it.
    public func verifyPasswordResetCode(_ code: String) async throws -> String {
        let info = try await session.checkActionCode(code)
        guard info.operation == .passwordReset else {
            throw AuthErrorCode(.invalidActionCode, "The code is not a password-reset code.")
        }
        return info.email
    }

    /// Uses a password-reset code to set a new password.
    public func confirmPasswordReset(withCode code: String, newPassword: String) async throws {
        try await session.confirmPasswordReset(code: code, newPassword: newPassword)
    }

    /// Signs the current user out on this device (the session stays valid at Hearth until it
    /// expires or is revoked).
    public func signOut() throws {
        try session.signOut()
    }
}
