import Foundation
import HearthCrypto
public import HearthWire

/// The project's users and email actions, as an admin: action links made without sending an
/// email, user management, session revocation, and ID-token verification.
public final class AdminAuth: Sendable {
    private let connection: AdminConnection
    private let verifier: TokenVerifier

    init(connection: AdminConnection, verifier: TokenVerifier) {
        self.connection = connection
        self.verifier = verifier
    }

    // MARK: - Email action links

    /// A link that verifies `email` when opened (no email is sent).
    /// - Parameter actionCodeSettings: where the link continues and which app may open it.
    public func generateEmailVerificationLink(
        for email: String,
        actionCodeSettings: ActionCodeSettings? = nil
    ) async throws -> String {
        try await link(.verifyEmail, email: email, settings: actionCodeSettings)
    }

    /// A link that lets the user of `email` choose a new password.
    public func generatePasswordResetLink(
        for email: String,
        actionCodeSettings: ActionCodeSettings? = nil
    ) async throws -> String {
        try await link(.passwordReset, email: email, settings: actionCodeSettings)
    }

    /// A link that signs the user of `email` in (the app must handle it:
    /// `actionCodeSettings.handleCodeInApp` true).
    public func generateSignInWithEmailLink(
        for email: String,
        actionCodeSettings: ActionCodeSettings
    ) async throws -> String {
        try await link(.emailLink, email: email, settings: actionCodeSettings)
    }

    /// A link that changes the address of the user of `email` to `newEmail` once opened, which
    /// also verifies `newEmail`.
    public func generateVerifyAndChangeEmailLink(
        for email: String,
        newEmail: String,
        actionCodeSettings: ActionCodeSettings? = nil
    ) async throws -> String {
        try await link(.verifyAndChangeEmail, email: email, newEmail: newEmail, settings: actionCodeSettings)
    }

    private func link(
        _ operation: ActionCodeOperation,
        email: String,
        newEmail: String? = nil,
        settings: ActionCodeSettings?
    ) async throws -> String {
        let request = SendOobCodeRequest(
            operation: operation,
            email: email,
            newEmail: newEmail,
            returnOobLink: true,
            settings: settings?.wireFields ?? ActionCodeSettingsFields()
        )
        let response: SendOobCodeResponse = try await connection.call(
            "POST",
            connection.identityToolkit("accounts:sendOobCode"),
            body: request
        )
        guard let link = response.oobLink else {
            throw AdminError(status: 200, code: AdminError.unexpectedResponse, message: "the answer has no oobLink")
        }
        return link
    }

    // MARK: - Users

    /// Makes a user and returns it as stored.
    public func createUser(_ properties: CreateRequest) async throws -> AdminUser {
        let request = CreateAccountRequest(
            localID: properties.uid,
            email: properties.email,
            password: properties.password,
            displayName: properties.displayName,
            emailVerified: properties.emailVerified,
            disabled: properties.disabled
        )
        let created: SignInResponse = try await connection.call(
            "POST",
            connection.identityToolkit("accounts"),
            body: request
        )
        return try await getUser(uid: created.localID)
    }

    /// The user with ID `uid`. Throws ``AdminError`` with code `USER_NOT_FOUND` when there is none.
    public func getUser(uid: String) async throws -> AdminUser {
        try await lookup(LookupRequest(localID: [uid]))
    }

    /// The user with address `email`. Throws ``AdminError`` with code `USER_NOT_FOUND` when
    /// there is none.
    public func getUser(email: String) async throws -> AdminUser {
        try await lookup(LookupRequest(email: [email]))
    }

    private func lookup(_ request: LookupRequest) async throws -> AdminUser {
        let response: LookupResponse = try await connection.call(
            "POST",
            connection.identityToolkit("accounts:lookup"),
            body: request
        )
        guard let record = response.users?.first else {
            throw AdminError(status: 400, code: WireErrorCode.userNotFound.rawValue, message: "")
        }
        return AdminUser(record)
    }

    /// Changes the user `uid` and returns it as stored.
    public func updateUser(uid: String, _ changes: UpdateRequest) async throws -> AdminUser {
        let request = UpdateAccountRequest(
            localID: uid,
            email: changes.email,
            password: changes.password,
            displayName: changes.displayName,
            emailVerified: changes.emailVerified,
            disableUser: changes.disabled
        )
        let _: UpdateAccountResponse = try await connection.call(
            "POST",
            connection.identityToolkit("accounts:update"),
            body: request
        )
        return try await getUser(uid: uid)
    }

    /// Deletes the user `uid` (its sessions end with it).
    public func deleteUser(uid: String) async throws {
        let _: DeleteAccountResponse = try await connection.call(
            "POST",
            connection.identityToolkit("accounts:delete"),
            body: DeleteAccountRequest(localID: uid)
        )
    }

    /// One page of the project's users, ordered by ID.
    /// - Parameters:
    ///   - maxResults: the page size, 1 to 1000.
    ///   - pageToken: ``ListUsersPage/pageToken`` of the previous page; `nil` for the first.
    public func listUsers(maxResults: Int = 1_000, pageToken: String? = nil) async throws -> ListUsersPage {
        var query = [URLQueryItem(name: "maxResults", value: String(maxResults))]
        if let pageToken { query.append(URLQueryItem(name: "nextPageToken", value: pageToken)) }
        let response: BatchGetAccountsResponse = try await connection.call(
            "GET",
            connection.identityToolkit("accounts:batchGet"),
            query: query
        )
        return ListUsersPage(users: (response.users ?? []).map(AdminUser.init), pageToken: response.nextPageToken)
    }

    /// Ends every session of the user `uid`: its refresh tokens stop working, and ID tokens
    /// issued before the current second (of the injected clock, truncated, as Firebase's Admin
    /// SDKs send it) are refused by ``verifyIDToken(_:checkRevoked:)`` with `checkRevoked`.
    /// Hearth never takes a cut-off later than its own clock, so sign-ins after the call work.
    public func revokeRefreshTokens(uid: String) async throws {
        let validSince = Int64(connection.now().timeIntervalSince1970.rounded(.down))
        let _: UpdateAccountResponse = try await connection.call(
            "POST",
            connection.identityToolkit("accounts:update"),
            body: UpdateAccountRequest(localID: uid, validSince: String(validSince))
        )
    }

    // MARK: - ID tokens

    /// Verifies an ID token Hearth issued for this project: signature (with the project's
    /// published ID-token keys), expiry, issuer and audience. With `checkRevoked`, also asks
    /// Hearth whether the user still exists, is enabled, and whether the token was issued
    /// after the user's last revocation.
    ///
    /// - Throws: ``TokenVerificationError`` for a refused token (`.invalidSignature` for an
    ///   altered one, `.expired`, `.wrongProject`, `.wrongPurpose` for an installation token,
    ///   `.revoked`, …); ``AdminError`` when Hearth could not be asked.
    public func verifyIDToken(_ idToken: String, checkRevoked: Bool = false) async throws -> DecodedIDToken {
        let verified = try await verifier.verify(idToken, as: .idToken)
        let decoded = try DecodedIDToken(verified: verified, projectID: connection.projectID)
        if checkRevoked {
            let user: AdminUser
            do {
                user = try await getUser(uid: decoded.uid)
            } catch let error as AdminError where error.wireCode == .userNotFound {
                throw TokenVerificationError.userNotFound
            }
            if user.disabled { throw TokenVerificationError.userDisabled }
            // Firebase's rule, in whole seconds: a token issued before `validSince` is revoked.
            if let cutOff = user.tokensValidAfterTime, decoded.issuedAt < cutOff {
                throw TokenVerificationError.revoked
            }
        }
        return decoded
    }
}
