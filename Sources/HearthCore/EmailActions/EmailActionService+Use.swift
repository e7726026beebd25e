import HearthBase
public import HearthStore
import HearthWire

extension EmailActionService {
    /// An applied code (`accounts:update` with `oobCode`): what it was and the account now.
    public struct Applied: Sendable {
        public var info: ActionCodeInfo
        public var account: AccountRecord
    }

    /// What the code is, without using it (`accounts:resetPassword` with only `oobCode`).
    public func inspect(project: Project, code: String) throws -> ActionCodeInfo {
        let now = clock.nowMilliseconds()
        return try store.read { transaction in
            try usableCode(code, project: project, in: transaction, now: now).info
        }
    }

    /// Uses a password-reset code: sets the new password (which ends every session of the
    /// account) and marks the address verified (the mailbox was proven). The other reset
    /// codes still in the user's mailbox are void from then on: they were made before the
    /// password changed (see `usableCode`).
    public func resetPassword(project: Project, code: String, newPassword: String) throws -> ActionCodeInfo {
        let now = clock.nowMilliseconds()
        // Fail fast on a bad code before spending a password hash on it.
        let preview = try inspect(project: project, code: code)
        guard preview.operation == .passwordReset else { throw AuthError.invalidOOBCode }
        var passwordChanges = try accounts.passwordChange(newPassword)
        passwordChanges.emailVerified = true
        let changes = passwordChanges
        return try store.write { [self] transaction in
            let usable = try usableCode(code, project: project, in: transaction, now: now)
            guard usable.info.operation == .passwordReset, let localID = usable.info.localID else {
                throw AuthError.invalidOOBCode
            }
            try consume(usable.record, in: transaction, now: now)
            _ = try accounts.apply(
                changes,
                toAccount: localID,
                projectID: project.id,
                in: transaction,
                nowMilliseconds: now
            )
            return usable.info
        }
    }

    /// Applies a verify-email, verify-and-change-email or recover-email code. Changing the
    /// email also sends a recover-email link to the old address, in the same transaction.
    public func apply(project: Project, code: String, apiKey: String) throws -> Applied {
        let now = clock.nowMilliseconds()
        let preview = try inspect(project: project, code: code)
        // No recovery email when the old address is one no mail can reach (an account can hold
        // one, see `requireMailable`): the change goes ahead, as it would if the old mailbox
        // were gone.
        let sendsRecovery = preview.operation == .verifyAndChangeEmail && MailAddress.isValidAddress(preview.email)
        let recovery = sendsRecovery ? try recoveryMail(for: preview, project: project, apiKey: apiKey, now: now) : nil
        // The recovery email is built (and claimed for sending) before the write, stored by it
        // only if the code turns out to be a verify-and-change code, and sent once durable.
        let recoveryMessage = recovery.map { recovery in
            var record = WriteTransaction.outboxRecord(
                for: recovery.mail,
                action: project.id == developmentProjectID ? recovery.action : nil,
                sealedWith: mailSeal,
                at: now
            )
            dispatcher?.claim(&record)
            return record
        }
        let applied = try store.write { [self] transaction in
            let usable = try usableCode(code, project: project, in: transaction, now: now)
            guard let localID = usable.info.localID else { throw AuthError.invalidOOBCode }
            var changes = AccountChanges()
            switch usable.info.operation {
            case .verifyEmail:
                changes.emailVerified = true
            case .verifyAndChangeEmail:
                guard let newEmail = usable.info.newEmail, !sendsRecovery || recovery?.localID == localID else {
                    throw AuthError.invalidOOBCode
                }
                changes.email = .some(newEmail)
                changes.emailVerified = true
            case .recoverEmail:
                changes.email = .some(usable.info.email)
                changes.emailVerified = true
            case .passwordReset, .emailLink, .unknown:
                throw AuthError.invalidOOBCode
            }
            try consume(usable.record, in: transaction, now: now)
            let outcome = try accounts.apply(
                changes,
                toAccount: localID,
                projectID: project.id,
                in: transaction,
                nowMilliseconds: now
            )
            if let recovery, let recoveryMessage, usable.info.operation == .verifyAndChangeEmail {
                try transaction.insertActionCode(recovery.record)
                try transaction.insertOutboxMessage(recoveryMessage)
            }
            return Applied(info: usable.info, account: outcome.account)
        }
        if let recoveryMessage, applied.info.operation == .verifyAndChangeEmail {
            dispatcher?.deliver(QueuedMail(record: recoveryMessage, composed: recovery?.mail))
        }
        return applied
    }

    /// Signs in (creating the account if needed) with an email-link code sent to `email`.
    public func signIn(project: Project, email: String, code: String) throws -> AccountService.SignedIn {
        guard !email.isEmpty else { throw AuthError(.missingEmail) }
        guard let normalized = EmailAddress.normalized(email) else { throw AuthError.invalidEmail }
        let now = clock.nowMilliseconds()
        let (account, refreshToken, isNew) = try store.write { [self] transaction in
            let usable = try usableCode(code, project: project, in: transaction, now: now)
            guard usable.info.operation == .emailLink else { throw AuthError.invalidOOBCode }
            guard usable.record.email == normalized else {
                throw AuthError(.invalidEmail, "The email provided does not match the sign-in email address.")
            }
            try consume(usable.record, in: transaction, now: now)
            return try accounts.signInOrCreate(
                project: project,
                email: normalized,
                in: transaction,
                nowMilliseconds: now
            )
        }
        return try accounts.signedIn(account, project: project, refreshToken: refreshToken, at: now, isNewUser: isNew)
    }

    // MARK: - Checking codes

    /// Whether `code` could be used now (the development tools list only such codes).
    public func isUsable(_ code: String, project: Project, in transaction: some StoreReading) -> Bool {
        (try? usableCode(code, project: project, in: transaction, now: clock.nowMilliseconds())) != nil
    }

    /// The code's record if it may be used now (see ``check(_:project:in:now:)``), else the
    /// error the Identity Toolkit answers.
    private func usableCode(_ code: String, project: Project, in transaction: some StoreReading, now: Int64) throws
        -> UsableCode
    {
        guard !code.isEmpty else { throw AuthError(.missingOOBCode) }
        switch try check(code, project: project, in: transaction, now: now) {
        case .usable(let usable): return usable
        case .expired: throw AuthError.expiredOOBCode
        case .disabled: throw AuthError.userDisabled
        case .unknown, .used, .void: throw AuthError.invalidOOBCode
        }
    }

    struct UsableCode {
        var record: ActionCodeRecord
        var info: ActionCodeInfo
    }

    /// What a code is now, most telling first.
    enum CodeCheck {
        /// It may be used.
        case usable(UsableCode)
        /// Not a code of this project.
        case unknown
        /// Used already.
        case used(ActionCodeOperation)
        case expired(ActionCodeOperation)
        /// The account it was made for no longer matches it: the address changed, or a
        /// password-reset code predates the last password change.
        case void(ActionCodeOperation)
        /// The account is disabled.
        case disabled(ActionCodeOperation)
    }

    /// Whether `code` may be used now: it exists in this project, is unused and unexpired,
    /// the account it was made for still has the address it was sent for, and a
    /// password-reset code was made after the password last changed (a reset, or any other
    /// change of the password, voids the reset links already mailed).
    func check(_ code: String, project: Project, in transaction: some StoreReading, now: Int64) throws -> CodeCheck {
        guard !code.isEmpty, code.utf8.count <= ActionCode.maximumLength,
            let record = try transaction.actionCode(hash: ActionCode.storageKey(code)),
            record.projectID == project.id,
            let operation = ActionCodeOperation(exactRequestType: record.operation)
        else { return .unknown }
        if record.consumedAt != nil { return .used(operation) }
        if now >= record.expiresAt { return .expired(operation) }
        if operation != .emailLink {
            guard let localID = record.localID,
                let account = try transaction.account(projectID: project.id, localID: localID)
            else { return .void(operation) }
            // A recover code undoes a change: the account must still have the address it
            // was changed to. Every other code is bound to the address it was sent for.
            let expected = operation == .recoverEmail ? record.newEmail : record.email
            guard account.email == expected else { return .void(operation) }
            if operation == .passwordReset, let changed = account.passwordUpdatedAt, record.createdAt < changed {
                return .void(operation)
            }
            if account.disabled { return .disabled(operation) }
        }
        let info = ActionCodeInfo(
            operation: operation,
            email: record.email,
            newEmail: record.newEmail,
            localID: record.localID
        )
        return .usable(UsableCode(record: record, info: info))
    }

    private func consume(_ record: ActionCodeRecord, in transaction: WriteTransaction, now: Int64) throws {
        // Two requests may race with the same code: only the one that flips it wins.
        guard try transaction.consumeActionCode(hash: record.codeHash, at: now) else { throw AuthError.invalidOOBCode }
    }

    // MARK: - Recover-email links

    private struct Recovery {
        var localID: String
        var record: ActionCodeRecord
        var mail: ComposedMail
        var action: MailAction
    }

    /// The recover-email code and message for a verify-and-change code, made before the
    /// write that applies it (so the writer does not render templates).
    private func recoveryMail(for info: ActionCodeInfo, project: Project, apiKey: String, now: Int64) throws
        -> Recovery?
    {
        guard let localID = info.localID, let newEmail = info.newEmail,
            let account = try accounts.account(project: project, localID: localID)
        else { return nil }
        let lifetime = project.settings.codeLifetimeSeconds(for: .recoverEmail)
        let (code, hash) = ActionCode.generate(expiringAtMilliseconds: now + lifetime * 1_000)
        let language = project.emailLanguage(
            for: .action(.recoverEmail),
            preferences: LanguagePreferences(stored: account.language)
        )
        let link = ActionLinkBuilder(project: project, publicURL: publicURL).link(
            for: .recoverEmail,
            code: code,
            apiKey: apiKey,
            settings: AcceptedActionCodeSettings(continueURL: nil, handledInApp: false),
            language: language
        )
        let record = ActionCodeRecord(
            codeHash: hash,
            projectID: project.id,
            operation: ActionCodeOperation.recoverEmail.requestType,
            localID: localID,
            email: info.email,
            newEmail: newEmail,
            language: language,
            createdAt: now,
            expiresAt: now + lifetime * 1_000
        )
        let mail = try composer.compose(
            MailRequest(
                kind: .action(.recoverEmail),
                project: project,
                recipient: info.email,
                languages: LanguagePreferences(explicit: language),
                displayName: account.displayName,
                email: info.email,
                newEmail: newEmail,
                link: link,
                linkLifetimeSeconds: lifetime
            )
        )
        let action = MailAction(
            operation: .recoverEmail,
            email: info.email,
            newEmail: newEmail,
            oobCode: code,
            oobLink: link
        )
        return Recovery(localID: localID, record: record, mail: mail, action: action)
    }
}
