import Foundation

/// The Identity Toolkit calls, in HearthWire's request and response shapes.
extension AuthSession {
    /// The profile `accounts:lookup` reports for an ID token.
    struct Profile: Sendable {
        var uid: String
        var email: String?
        var isEmailVerified: Bool
        var displayName: String?
    }

    func signUp(email: String, password: String) async throws(AuthErrorCode) -> AuthDataResult {
        let answer: SignInResponse = try await backend.call(
            "accounts:signUp",
            SignUpRequest(email: email, password: password, returnSecureToken: true)
        )
        return try await signedIn(by: answer, email: email, isNewUser: true)
    }

    func signIn(email: String, password: String) async throws(AuthErrorCode) -> AuthDataResult {
        let answer: SignInResponse = try await backend.call(
            "accounts:signInWithPassword",
            SignInWithPasswordRequest(email: email, password: password, returnSecureToken: true)
        )
        return try await signedIn(by: answer, email: email, isNewUser: false)
    }

    func signIn(email: String, code: String) async throws(AuthErrorCode) -> AuthDataResult {
        let answer: SignInResponse = try await backend.call(
            "accounts:signInWithEmailLink",
            SignInWithEmailLinkRequest(email: email, oobCode: code)
        )
        return try await signedIn(by: answer, email: email, isNewUser: answer.isNewUser ?? false)
    }

    /// The session a sign-in answer starts, made the current user.
    private func signedIn(
        by answer: SignInResponse,
        email: String,
        isNewUser: Bool
    ) async throws(AuthErrorCode) -> AuthDataResult {
        let user = try await signIn(
            idToken: try required(answer.idToken),
            refreshToken: try required(answer.refreshToken),
            expiresIn: try seconds(answer.expiresIn),
            fallbackEmail: email
        )
        return AuthDataResult(
            user: user,
            additionalUserInfo: AdditionalUserInfo(providerID: "password", isNewUser: isNewUser)
        )
    }

    func lookUp(idToken: String) async throws(AuthErrorCode) -> Profile {
        let answer: LookupResponse = try await backend.call("accounts:lookup", LookupRequest(idToken: idToken))
        guard let account = answer.users?.first else {
            throw AuthErrorCode(.userNotFound, "Hearth knows no account for this session.")
        }
        return Profile(
            uid: account.localID,
            email: account.email,
            isEmailVerified: account.emailVerified ?? false,
            displayName: account.displayName
        )
    }

    func sendPasswordReset(email: String, settings: ActionCodeSettings?) async throws(AuthErrorCode) {
        try await sendOobCode(SendOobCodeRequest(operation: .passwordReset, email: email), settings: settings)
    }

    func sendSignInLink(email: String, settings: ActionCodeSettings) async throws(AuthErrorCode) {
        try await sendOobCode(SendOobCodeRequest(operation: .emailLink, email: email), settings: settings)
    }

    func sendVerification(idToken: String, newEmail: String?, settings: ActionCodeSettings?) async throws(AuthErrorCode)
    {
        if let newEmail {
            try await sendOobCode(
                SendOobCodeRequest(operation: .verifyAndChangeEmail, newEmail: newEmail, idToken: idToken),
                settings: settings
            )
        } else {
            try await sendOobCode(SendOobCodeRequest(operation: .verifyEmail, idToken: idToken), settings: settings)
        }
    }

    private func sendOobCode(_ request: SendOobCodeRequest, settings: ActionCodeSettings?) async throws(AuthErrorCode) {
        var request = request
        if let settings { request.settings = settings.wireFields }
        let _: SendOobCodeResponse = try await backend.call("accounts:sendOobCode", request)
    }

    func checkActionCode(_ code: String) async throws(AuthErrorCode) -> ActionCodeInfo {
        let answer: ResetPasswordResponse = try await backend.call(
            "accounts:resetPassword",
            ResetPasswordRequest(oobCode: code, newPassword: nil)
        )
        let operation = answer.requestType.map(ActionCodeOperation.init(requestType:)) ?? .unknown
        // Firebase's convention: for an email change, `email` is the address the code leads to.
        if let newEmail = answer.newEmail, !newEmail.isEmpty {
            return ActionCodeInfo(operation: operation, email: newEmail, previousEmail: answer.email)
        }
        return ActionCodeInfo(operation: operation, email: answer.email ?? "", previousEmail: nil)
    }

    func applyActionCode(_ code: String) async throws(AuthErrorCode) {
        let _: UpdateAccountResponse = try await backend.call("accounts:update", UpdateAccountRequest(oobCode: code))
        // An applied code can change the signed-in account (verified, new email): read it again.
        // A session the change ended has signed the user out; the code was applied all the same.
        if let user = currentUser, let idToken = try? await user.getIDToken(),
            let profile = try? await lookUp(idToken: idToken)
        {
            try? user.update { record in
                record.email = profile.email
                record.isEmailVerified = profile.isEmailVerified
                record.displayName = profile.displayName
            }
        }
    }

    func confirmPasswordReset(code: String, newPassword: String) async throws(AuthErrorCode) {
        let _: ResetPasswordResponse = try await backend.call(
            "accounts:resetPassword",
            ResetPasswordRequest(oobCode: code, newPassword: newPassword)
        )
    }

    func deleteAccount(idToken: String) async throws(AuthErrorCode) {
        let _: DeleteAccountResponse = try await backend.call("accounts:delete", DeleteAccountRequest(idToken: idToken))
    }

    private func required(_ token: String?) throws(AuthErrorCode) -> String {
        guard let token, !token.isEmpty else { throw AuthErrorCode(.internalError, "Hearth's answer has no token.") }
        return token
    }

    private func seconds(_ expiresIn: String?) throws(AuthErrorCode) -> TimeInterval {
        guard let expiresIn, let seconds = TimeInterval(expiresIn) else {
            throw AuthErrorCode(.internalError, "Hearth's answer has no usable expiresIn.")
        }
        return seconds
    }
}
