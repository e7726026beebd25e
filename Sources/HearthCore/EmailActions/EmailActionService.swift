public import HearthBase
public import HearthStore

/// Email actions: `sendOobCode` makes a code, its link and its email in one durable write;
/// the code is then inspected, used to reset a password, applied (verify, verify-and-change,
/// recover), or used to sign in by link — each use consuming it atomically, once.
public final class EmailActionService: Sendable {
    public let store: any Store
    public let clock: any Clock
    public let accounts: AccountService
    public let composer: any MailComposer
    /// Hearth's public base URL (without a trailing slash), the base of action links.
    public let publicURL: String
    /// The development seed's project, whose queued emails also keep their code in clear
    /// for `GET /emulator/v1/projects/{p}/oobCodes`; no other project's do.
    public let developmentProjectID: String?
    /// Sends the emails of committed requests at once; without one, they wait in the outbox
    /// for a delivery worker's next look.
    public let dispatcher: (any MailDispatcher)?

    public init(
        store: any Store,
        clock: any Clock,
        accounts: AccountService,
        composer: any MailComposer,
        publicURL: String,
        developmentProjectID: String?,
        dispatcher: (any MailDispatcher)? = nil
    ) {
        self.store = store
        self.clock = clock
        self.accounts = accounts
        self.composer = composer
        self.publicURL = publicURL
        self.developmentProjectID = developmentProjectID
        self.dispatcher = dispatcher
    }

    /// Who asks for a code.
    public enum Caller: Sendable, Equatable {
        /// An app, with an API key: limited, and under enumeration protection.
        case client(clientAddress: String)
        /// A server with an admin credential: may ask for the link instead of an email.
        case admin
    }

    /// An `accounts:sendOobCode` request, decoded.
    public struct Request: Sendable {
        public var operation: ActionCodeOperation
        public var email: String?
        public var newEmail: String?
        public var idToken: String?
        public var settings: ActionCodeSettings
        /// Answer the code and link instead of emailing them (admins only).
        public var returnOobLink: Bool
        public var caller: Caller
        /// The API key the link carries (the caller's, or the project's first).
        public var apiKey: String
        public var languages: LanguagePreferences

        public init(
            operation: ActionCodeOperation,
            email: String? = nil,
            newEmail: String? = nil,
            idToken: String? = nil,
            settings: ActionCodeSettings = ActionCodeSettings(),
            returnOobLink: Bool = false,
            caller: Caller,
            apiKey: String,
            languages: LanguagePreferences = LanguagePreferences()
        ) {
            self.operation = operation
            self.email = email
            self.newEmail = newEmail
            self.idToken = idToken
            self.settings = settings
            self.returnOobLink = returnOobLink
            self.caller = caller
            self.apiKey = apiKey
            self.languages = languages
        }
    }

    /// The answer to `sendOobCode`.
    public struct Sent: Sendable, Equatable {
        /// The address the request concerned.
        public var email: String
        /// With `returnOobLink`: the code and its link.
        public var oobCode: String?
        public var oobLink: String?
    }

    /// The account a code will act on, and where its email goes.
    private struct Target {
        var account: AccountRecord?
        /// The address the code is bound to (`ActionCodeRecord.email`).
        var boundEmail: String
        var newEmail: String?
        var recipient: String
        /// Nothing may be sent (enumeration protection hides why); the request still costs
        /// the same write and gets the same answer.
        var silent = false
    }

    /// A `sendOobCode` request checked and composed, ready for its one durable write.
    public struct PreparedSend: Sendable {
        /// The answer, once `write` has committed.
        public let sent: Sent
        /// Counts the limits, stores the code and queues the email, in one transaction. It
        /// throws only before its first change (a refusal) or with a `StoreError`, so it can run
        /// unguarded (`Store.write(_:guarded:completion:)`).
        public let write: @Sendable (WriteTransaction) throws -> Void
        /// Call once `write` is durable (not if it failed): sends the email it queued.
        public let committed: @Sendable () -> Void
    }

    // MARK: - Sending

    public func sendOobCode(project: Project, _ request: Request) throws -> Sent {
        let prepared = try prepareSend(project: project, request)
        try store.write(prepared.write)
        prepared.committed()
        return prepared.sent
    }

    /// Everything `sendOobCode` does before its write: checks, the code, the link, the
    /// composed email. The caller runs `write` (synchronously or deferred) and answers `sent`.
    public func prepareSend(project: Project, _ request: Request) throws -> PreparedSend {
        if request.returnOobLink && request.caller != .admin {
            throw AuthError(.insufficientPermission, "returnOobLink needs an admin credential")
        }
        if request.operation == .recoverEmail {
            throw AuthError(.invalidRequestType, "RECOVER_EMAIL codes are sent by Hearth when an email changes")
        }
        let settings: AcceptedActionCodeSettings
        do {
            settings = try ContinueURLPolicy(project: project).accept(request.settings)
        } catch {
            throw AuthError(AuthError.Code(rawValue: error.code), error.detail)
        }
        let target = try target(of: request, project: project)

        let now = clock.nowMilliseconds()
        let (code, hash) = ActionCode.generate(atMilliseconds: now)
        let lifetime = project.settings.codeLifetimeSeconds(for: request.operation)
        let kind = request.operation.mailKind
        let language = project.emailLanguage(
            for: kind,
            preferences: LanguagePreferences(
                explicit: request.languages.explicit,
                stored: target.account?.language ?? request.languages.stored,
                acceptLanguage: request.languages.acceptLanguage
            )
        )
        let link = ActionLinkBuilder(project: project, publicURL: publicURL).link(
            for: request.operation,
            code: code,
            apiKey: request.apiKey,
            settings: settings,
            language: language
        )
        let record = ActionCodeRecord(
            codeHash: hash,
            projectID: project.id,
            operation: request.operation.rawValue,
            localID: target.account?.localID,
            email: target.boundEmail,
            newEmail: target.newEmail,
            continueURL: settings.continueURL,
            language: language,
            createdAt: now,
            expiresAt: now + lifetime * 1_000
        )
        let mail: ComposedMail? =
            request.returnOobLink || target.silent
            ? nil
            : try composer.compose(
                MailRequest(
                    kind: kind,
                    project: project,
                    recipient: target.recipient,
                    languages: LanguagePreferences(explicit: language),
                    displayName: target.account?.displayName,
                    email: target.boundEmail,
                    newEmail: target.newEmail,
                    link: link,
                    linkLifetimeSeconds: lifetime
                )
            )
        let action = developmentAction(
            project: project,
            operation: request.operation,
            target: target,
            code: code,
            link: link
        )
        let message = mail.map { mail in
            let record = WriteTransaction.outboxRecord(for: mail, action: action, at: now)
            return dispatcher?.claim(record) ?? record
        }
        let limits = SendLimits(project: project)
        let caller = request.caller
        let silent = target.silent
        let recipient = target.recipient
        let sent = Sent(
            email: target.boundEmail,
            oobCode: request.returnOobLink ? code : nil,
            oobLink: request.returnOobLink ? link : nil
        )
        return PreparedSend(
            sent: sent,
            write: { transaction in
                if case .client(let clientAddress) = caller {
                    try limits.record(
                        recipient: recipient,
                        clientAddress: clientAddress,
                        in: transaction,
                        now: now / 1_000
                    )
                }
                if silent { return }
                try transaction.insertActionCode(record)
                if let message { try transaction.insertOutboxMessage(message) }
            },
            committed: { [dispatcher] in
                if let dispatcher, let message { dispatcher.deliver(message) }
            }
        )
    }

    /// Finds the account and addresses of a `sendOobCode` request, or the reason it fails.
    private func target(of request: Request, project: Project) throws -> Target {
        let isAdmin = request.caller == .admin
        // Enumeration protection hides whether an address has an account from apps; admins
        // always learn the truth.
        let hidesAccounts = !isAdmin && project.settings.emailEnumerationProtection
        switch request.operation {
        case .passwordReset:
            let email = try normalizedEmail(request.email)
            // Checked before the account is looked up: an address no mail can reach gets the
            // same answer whether or not an account has it.
            try requireMailable(email, request)
            guard let account = try accounts.account(project: project, email: email) else {
                if hidesAccounts { return Target(boundEmail: email, recipient: email, silent: true) }
                throw AuthError(.emailNotFound, "There is no user record corresponding to this identifier.")
            }
            if account.disabled {
                if hidesAccounts { return Target(account: account, boundEmail: email, recipient: email, silent: true) }
                throw AuthError.userDisabled
            }
            return Target(account: account, boundEmail: email, recipient: email)

        case .emailSignIn:
            let email = try normalizedEmail(request.email)
            try requireMailable(email, request)
            let account = try accounts.account(project: project, email: email)
            if let account, account.disabled {
                if hidesAccounts { return Target(account: account, boundEmail: email, recipient: email, silent: true) }
                throw AuthError.userDisabled
            }
            return Target(account: account, boundEmail: email, recipient: email)

        case .verifyEmail:
            let account = try actingAccount(request, project: project)
            guard let email = account.email else {
                throw AuthError(.missingEmail, "The user has no email address to verify.")
            }
            try requireMailable(email, request)
            return Target(account: account, boundEmail: email, recipient: email)

        case .verifyAndChangeEmail:
            guard let given = request.newEmail, !given.isEmpty else { throw AuthError(.missingNewEmail) }
            guard let newEmail = EmailAddress.normalized(given) else { throw AuthError.invalidEmail }
            try requireMailable(newEmail, request)
            let account = try actingAccount(request, project: project)
            guard let current = account.email else {
                throw AuthError(.missingEmail, "The user has no email address to change.")
            }
            if let holder = try accounts.account(project: project, email: newEmail), holder.localID != account.localID {
                if hidesAccounts {
                    return Target(
                        account: account,
                        boundEmail: current,
                        newEmail: newEmail,
                        recipient: newEmail,
                        silent: true
                    )
                }
                throw AuthError.emailExists
            }
            return Target(account: account, boundEmail: current, newEmail: newEmail, recipient: newEmail)

        case .recoverEmail:
            throw AuthError(.invalidRequestType)
        }
    }

    /// The account of a verify or verify-and-change request: the ID token's user for apps;
    /// for admins the ID token's or, without one, the account of `email`.
    private func actingAccount(_ request: Request, project: Project) throws -> AccountRecord {
        if let idToken = request.idToken, !idToken.isEmpty {
            return try accounts.authenticate(idToken: idToken, project: project).0
        }
        guard request.caller == .admin else { throw AuthError(.missingIDToken) }
        let email = try normalizedEmail(request.email)
        guard let account = try accounts.account(project: project, email: email) else { throw AuthError.userNotFound }
        if account.disabled { throw AuthError.userDisabled }
        return account
    }

    /// Refuses a recipient the mail transports cannot address (`MailAddress`'s rules: an
    /// account may hold an address Firebase accepts, e.g. with a non-ASCII local part, that no
    /// message can be sent to) when the request sends a message.
    private func requireMailable(_ address: String, _ request: Request) throws(AuthError) {
        guard !request.returnOobLink, !MailAddress.isValidAddress(address) else { return }
        throw AuthError(.invalidEmail, "No email can be sent to this address.")
    }

    private func normalizedEmail(_ given: String?) throws(AuthError) -> String {
        guard let given, !given.isEmpty else { throw AuthError(.missingEmail) }
        guard let email = EmailAddress.normalized(given) else { throw AuthError.invalidEmail }
        return email
    }

    /// What the development tools may show of a queued email's code (seed project only).
    private func developmentAction(
        project: Project,
        operation: ActionCodeOperation,
        target: Target,
        code: String,
        link: String
    ) -> MailAction? {
        guard project.id == developmentProjectID else { return nil }
        return MailAction(
            requestType: operation.mailKind,
            email: target.boundEmail,
            newEmail: target.newEmail,
            oobCode: code,
            oobLink: link
        )
    }
}

/// The per-recipient and per-client-address limits on action emails, counted in the store.
struct SendLimits {
    let perRecipient: RateLimit
    let perClientAddress: RateLimit

    init(project: Project) {
        perRecipient = RateLimit(
            name: "oob-recipient:\(project.id)",
            limit: project.settings.emailsPerRecipientPerHour,
            windowSeconds: 3_600
        )
        perClientAddress = RateLimit(
            name: "oob-client:\(project.id)",
            limit: project.settings.emailsPerClientAddressPerHour,
            windowSeconds: 3_600
        )
    }

    /// Counts one email against both limits, or throws `tooManyAttempts` leaving both counts
    /// as they were (the send's write runs without a savepoint).
    func record(recipient: String, clientAddress: String, in transaction: WriteTransaction, now: Int64) throws {
        let admitted = try RateLimit.admit(
            [(perRecipient, recipient), (perClientAddress, clientAddress)],
            in: transaction,
            now: now
        )
        guard admitted else {
            throw AuthError(.tooManyAttempts, "Too many emails were asked for; try again later.")
        }
    }
}
