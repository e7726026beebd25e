import HearthBase
public import HearthStore

/// What an admin gives to create an account (`POST /v1/projects/{p}/accounts`).
public struct AccountDraft: Sendable, Equatable {
    public var localID: String?
    public var email: String?
    /// An E.164 phone number (validated by `create`).
    public var phoneNumber: String?
    public var password: String?
    public var displayName: String?
    public var photoURL: String?
    public var emailVerified = false
    public var disabled = false

    public init() {}
}

/// One account `accounts:batchDelete` left alone, and why.
public struct BatchDeleteFailure: Sendable, Equatable {
    public var index: Int
    public var localID: String
    public var message: String
}

extension AccountService {
    /// The changes for a request to set a password, validated and hashed (on this thread).
    public func passwordChange(_ password: String) throws -> AccountChanges {
        try PasswordPolicy.validate(password)
        var changes = AccountChanges()
        changes.passwordHash = .some(hasher.hash(password))
        return changes
    }

    /// The changes for a new email, validated and normalised.
    public static func emailChange(_ email: String) throws(AuthError) -> AccountChanges {
        guard let normalized = EmailAddress.normalized(email) else { throw AuthError.invalidEmail }
        var changes = AccountChanges()
        changes.email = .some(normalized)
        return changes
    }

    /// The stored form of custom claims (compact JSON), or `nil` to clear them.
    public static func customAttributes(_ text: String) throws(AuthError) -> String? {
        guard let claims = try CustomClaims.parse(text) else { return nil }
        return String(decoding: JSONValue.object(claims).serialized(), as: UTF8.self)
    }

    /// Applies `changes` to an account inside the caller's write transaction: checks that a
    /// new email is free, saves, and ends every session when the changes call for it. For
    /// callers (email actions) that must change an account and consume a code atomically.
    public func apply(
        _ changes: AccountChanges,
        toAccount localID: String,
        projectID: String,
        in transaction: WriteTransaction,
        nowMilliseconds: Int64
    ) throws -> AccountChanges.Outcome {
        guard let account = try transaction.account(projectID: projectID, localID: localID) else {
            throw AuthError.userNotFound
        }
        let outcome = account.applying(changes, nowMilliseconds: nowMilliseconds)
        if case .some(.some(let email)) = changes.email, email != account.email,
            let holder = try transaction.account(projectID: projectID, email: email), holder.localID != localID
        {
            throw AuthError.emailExists
        }
        if case .some(.some(let phoneNumber)) = changes.phoneNumber, phoneNumber != account.phoneNumber,
            let holder = try transaction.account(projectID: projectID, phoneNumber: phoneNumber),
            holder.localID != localID
        {
            throw AuthError.phoneNumberExists
        }
        try transaction.updateAccount(outcome.account)
        if outcome.revokesSessions, let revokedAt = outcome.account.sessionsRevokedAt {
            try transaction.revokeRefreshTokens(
                projectID: projectID,
                localID: localID,
                issuedThrough: revokedAt,
                at: nowMilliseconds
            )
        }
        return outcome
    }

    /// Changes an account in its own write and, when asked, starts a new session for it (in
    /// the same transaction). A session the change starts is issued one millisecond after the
    /// revocation the change causes, so it outlives it (``SessionRevocation``: a refresh token
    /// issued at the revocation's instant is refused).
    ///
    /// - Parameters:
    ///   - startSession: also issue new tokens (not for a disabled account).
    ///   - authTimeSeconds: the new session's sign-in time; now when `nil`. A profile change
    ///     continues the caller's session (pass its `auth_time`); a password change starts anew.
    /// - Returns: the outcome, and the new session's tokens when `startSession` is true.
    @discardableResult
    public func update(
        project: Project,
        localID: String,
        changes: AccountChanges,
        startSession: Bool = false,
        authTimeSeconds: Int64? = nil
    ) throws -> (AccountChanges.Outcome, SessionTokens?) {
        let now = clock.nowMilliseconds()
        let authTime = authTimeSeconds ?? now / 1_000
        let (outcome, session) = try write { [self] transaction in
            let outcome = try apply(
                changes,
                toAccount: localID,
                projectID: project.id,
                in: transaction,
                nowMilliseconds: now
            )
            guard startSession, !outcome.account.disabled else { return (outcome, (String, Int64)?.none) }
            let issuedAt =
                outcome.revokesSessions
                ? SessionRevocation.sessionStart(nowMilliseconds: now, after: outcome.account.sessionsRevokedAt) : now
            let token = try insertRefreshToken(
                for: outcome.account,
                authTimeSeconds: authTime,
                in: transaction,
                nowMilliseconds: issuedAt
            )
            return (outcome, (token, issuedAt))
        }
        guard let (refreshToken, recordedAt) = session else { return (outcome, nil) }
        let tokens = try sessionTokens(
            for: outcome.account,
            project: project,
            refreshToken: refreshToken,
            authTimeSeconds: authTime,
            recordedAt: recordedAt
        )
        return (outcome, tokens)
    }

    /// Sets a new password (validated and hashed here), which ends every other session.
    @discardableResult
    public func setPassword(project: Project, localID: String, password: String) throws -> AccountRecord {
        try update(project: project, localID: localID, changes: passwordChange(password)).0.account
    }

    /// Marks the account's email as verified.
    @discardableResult
    public func markEmailVerified(project: Project, localID: String) throws -> AccountRecord {
        var changes = AccountChanges()
        changes.emailVerified = true
        return try update(project: project, localID: localID, changes: changes).0.account
    }

    /// Changes the account's email (`EMAIL_EXISTS` when another account has it).
    /// - Returns: the outcome, whose `previousEmail` is the address to notify.
    @discardableResult
    public func changeEmail(project: Project, localID: String, to email: String, verified: Bool = false) throws
        -> AccountChanges.Outcome
    {
        var changes = try Self.emailChange(email)
        changes.emailVerified = verified
        return try update(project: project, localID: localID, changes: changes).0
    }

    /// Deletes an account and its sessions (`USER_NOT_FOUND` if there is none).
    public func delete(project: Project, localID: String) throws {
        let deleted = try store.write { try $0.deleteAccount(projectID: project.id, localID: localID) }
        if !deleted { throw AuthError.userNotFound }
    }

    /// Creates an account as an admin: any ID, email, phone number and password (each
    /// optional), verified or disabled from the start. No session is started.
    public func create(project: Project, draft: AccountDraft) throws -> AccountRecord {
        if let localID = draft.localID { try Self.validateLocalID(localID) }
        let email = try draft.email.map { given throws(AuthError) in
            guard let normalized = EmailAddress.normalized(given) else { throw AuthError.invalidEmail }
            return normalized
        }
        let phoneNumber = try draft.phoneNumber.map { given throws(AuthError) in try PhoneNumber.validated(given) }
        if let password = draft.password { try PasswordPolicy.validate(password) }
        let passwordHash = draft.password.map { hasher.hash($0) }
        let now = clock.nowMilliseconds()
        let account = AccountRecord(
            projectID: project.id,
            localID: draft.localID ?? Self.newLocalID(),
            email: email,
            emailVerified: draft.emailVerified,
            passwordHash: passwordHash,
            passwordUpdatedAt: passwordHash == nil ? nil : now,
            displayName: draft.displayName,
            photoURL: draft.photoURL,
            disabled: draft.disabled,
            createdAt: now,
            validSinceSeconds: now / 1_000,
            phoneNumber: phoneNumber
        )
        try write { transaction in
            if try transaction.account(projectID: account.projectID, localID: account.localID) != nil {
                throw AuthError(.duplicateLocalID, "The user with the provided uid already exists.")
            }
            if let email, try transaction.account(projectID: account.projectID, email: email) != nil {
                throw AuthError.emailExists
            }
            if let phoneNumber, try transaction.account(projectID: account.projectID, phoneNumber: phoneNumber) != nil {
                throw AuthError.phoneNumberExists
            }
            try transaction.insertAccount(account)
        }
        return account
    }

    /// Deletes many accounts at once. Without `force`, only disabled accounts are deleted and
    /// the others are reported; unknown IDs count as deleted.
    public func batchDelete(project: Project, localIDs: [String], force: Bool) throws -> [BatchDeleteFailure] {
        try store.write { transaction in
            var failures: [BatchDeleteFailure] = []
            for (index, localID) in localIDs.enumerated() {
                if !force, let account = try transaction.account(projectID: project.id, localID: localID),
                    !account.disabled
                {
                    failures.append(
                        BatchDeleteFailure(
                            index: index,
                            localID: localID,
                            message: "NOT_DISABLED : Disable the account before batch deletion."
                        )
                    )
                    continue
                }
                try transaction.deleteAccount(projectID: project.id, localID: localID)
            }
            return failures
        }
    }
}
