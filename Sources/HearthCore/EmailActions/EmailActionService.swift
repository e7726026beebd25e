public import HearthBase
public import HearthStore
public import HearthWire
import Synchronization

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
    /// The development seed's project, whose queued emails also keep their code (sealed,
    /// like every message's values) for `GET /emulator/v1/projects/{p}/oobCodes`; no other
    /// project's do.
    public let developmentProjectID: String?
    /// Seals queued messages' values and actions.
    public let mailSeal: MailSeal
    /// Sends the emails of committed requests at once; without one, they wait in the outbox
    /// for a delivery worker's next look.
    public let dispatcher: (any MailDispatcher)?
    /// The links admins generated (`returnOobLink`) for the development seed, newest last, for
    /// the same listing: no email holds them. Kept in memory only (a restart forgets them, as
    /// the Firebase emulator forgets its codes), so no code is stored in the clear; bounded to the latest ``generatedLinkLimit``.
    private let generatedLinks = Mutex<[GeneratedLink]>([])
    public static let generatedLinkLimit = 1_000

    /// A link an admin generated for the development seed, and when.
    public struct GeneratedLink: Sendable, Equatable {
        public let action: MailAction
        public let createdAt: Int64
    }

    public init(
        store: any Store,
        clock: any Clock,
        accounts: AccountService,
        composer: any MailComposer,
        publicURL: String,
        developmentProjectID: String?,
        mailSeal: MailSeal,
        dispatcher: (any MailDispatcher)? = nil
    ) {
        self.store = store
        self.clock = clock
        self.accounts = accounts
        self.composer = composer
        self.publicURL = publicURL
        self.developmentProjectID = developmentProjectID
        self.mailSeal = mailSeal
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
        /// The settings as sent; `prepareSend` checks them (`ContinueURLPolicy`).
        public var settings: ActionCodeSettingsFields
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
            settings: ActionCodeSettingsFields = ActionCodeSettingsFields(),
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
    private struct Target: Sendable {
        var account: AccountRecord?
        /// The address the code is bound to (`ActionCodeRecord.email`).
        var boundEmail: String
        var newEmail: String?
        var recipient: String
        /// Nothing may be sent (enumeration protection hides why); the request still costs
        /// the same write and gets the same answer.
        var silent = false
    }

    /// A `sendOobCode` request checked, ready for its one durable write.
    public struct PreparedSend: Sendable {
        /// Finds the account (for a request naming only an address, inside the transaction:
        /// the send needs no read of its own), composes the code, link and email, counts the
        /// limits, stores the code and queues the email, in one transaction. It throws only
        /// before its first change (a refusal) or with a `StoreError`, so it can run unguarded
        /// (`Store.write(_:guarded:completion:)`).
        public let write: @Sendable (WriteTransaction) throws -> Queued
        /// Call once `write` is durable (not if it failed) with its result: sends the email it
        /// queued.
        public let committed: @Sendable (Queued) -> Void
    }

    /// What a send's write stored: the answer, and the email to hand to the mail workers.
    public struct Queued: Sendable {
        public let sent: Sent
        let mail: QueuedMail?
        /// A development seed's admin-generated link, listed once the write is durable.
        var generatedLink: GeneratedLink? = nil
    }

    // MARK: - Sending

    public func sendOobCode(project: Project, _ request: Request) throws -> Sent {
        let prepared = try prepareSend(project: project, request)
        let queued = try store.write(prepared.write)
        prepared.committed(queued)
        return queued.sent
    }

    /// Everything `sendOobCode` checks before its write. The caller runs `write`
    /// (synchronously or deferred) and answers its `sent`.
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
        // An address-only request finds its account in the write itself: a read of its own
        // would start cold after every commit (SQLite drops a reader's cache then), costing
        // more than all the rest of the preparation, and share SQLite's locks with the writer.
        let resolve: @Sendable (any StoreReading) throws -> Target
        switch request.operation {
        case .passwordReset, .emailLink:
            let email = try normalizedEmail(request.email)
            // Checked before the account is looked up: an address no mail can reach gets the
            // same answer whether or not an account has it.
            try requireMailable(email, request)
            resolve = { [self] reading in
                try addressTarget(
                    of: request,
                    email: email,
                    account: reading.account(projectID: project.id, email: email),
                    project: project
                )
            }
        default:
            let target = try target(of: request, project: project)
            resolve = { _ in target }
        }
        return PreparedSend(
            write: { [self] transaction in
                try queue(
                    try resolve(transaction),
                    project: project,
                    request: request,
                    settings: settings,
                    in: transaction
                )
            },
            committed: { [self] queued in
                if let dispatcher, let mail = queued.mail { dispatcher.deliver(mail) }
                if let link = queued.generatedLink {
                    generatedLinks.withLock { links in
                        links.append(link)
                        if links.count > Self.generatedLinkLimit { links.removeFirst() }
                    }
                }
            }
        )
    }

    /// Composes the code, link and email of a request for `target` and stores them (or, for a
    /// silent target, only counts the limits). Throws only before its first change.
    private func queue(
        _ target: Target,
        project: Project,
        request: Request,
        settings: AcceptedActionCodeSettings,
        in transaction: WriteTransaction
    ) throws -> Queued {
        let now = clock.nowMilliseconds()
        let lifetime = project.settings.codeLifetimeSeconds(for: request.operation)
        let (code, hash) = ActionCode.generate(expiringAtMilliseconds: now + lifetime * 1_000)
        let kind = MailKind.action(request.operation)
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
            operation: request.operation.requestType,
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
            var record = WriteTransaction.outboxRecord(for: mail, action: action, sealedWith: mailSeal, at: now)
            dispatcher?.claim(&record)
            return record
        }
        if case .client(let clientAddress) = request.caller {
            try SendLimits(project: project).record(
                recipient: target.recipient,
                clientAddress: clientAddress,
                in: transaction,
                now: now / 1_000
            )
        }
        let sent = Sent(
            email: target.boundEmail,
            oobCode: request.returnOobLink ? code : nil,
            oobLink: request.returnOobLink ? link : nil
        )
        if target.silent { return Queued(sent: sent, mail: nil) }
        try transaction.insertActionCode(record)
        if let message { try transaction.insertOutboxMessage(message) }
        return Queued(
            sent: sent,
            mail: message.map { QueuedMail(record: $0, composed: mail) },
            generatedLink: request.returnOobLink ? action.map { GeneratedLink(action: $0, createdAt: now) } : nil
        )
    }

    /// The target of a password-reset or sign-in-link request for `email`, whose account (if
    /// any) is `account`, or the reason it fails.
    private func addressTarget(of request: Request, email: String, account: AccountRecord?, project: Project) throws
        -> Target
    {
        let hidesAccounts = hidesAccounts(request, project)
        if let account, account.disabled {
            if hidesAccounts { return Target(account: account, boundEmail: email, recipient: email, silent: true) }
            throw AuthError.userDisabled
        }
        if account == nil && request.operation == .passwordReset {
            if hidesAccounts { return Target(boundEmail: email, recipient: email, silent: true) }
            throw AuthError(.emailNotFound, "There is no user record corresponding to this identifier.")
        }
        return Target(account: account, boundEmail: email, recipient: email)
    }

    /// Enumeration protection hides whether an address has an account from apps; admins
    /// always learn the truth.
    private func hidesAccounts(_ request: Request, _ project: Project) -> Bool {
        request.caller != .admin && project.settings.emailEnumerationProtection
    }

    /// Finds the account and addresses of a verify or verify-and-change request, or the reason
    /// it fails.
    private func target(of request: Request, project: Project) throws -> Target {
        let hidesAccounts = hidesAccounts(request, project)
        switch request.operation {
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

        case .passwordReset, .emailLink, .recoverEmail, .unknown:
            // Address-only requests find their account in their write (`addressTarget`);
            // recover codes are never requested.
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
        throw AuthError.invalidEmail
    }

    private func normalizedEmail(_ given: String?) throws(AuthError) -> String {
        guard let given, !given.isEmpty else { throw AuthError(.missingEmail) }
        guard let email = EmailAddress.normalized(given) else { throw AuthError.invalidEmail }
        return email
    }

    /// The links admins generated for the development seed since start-up, oldest first.
    public func developmentGeneratedLinks() -> [GeneratedLink] {
        generatedLinks.withLock { $0 }
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
            operation: operation,
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
            throw AuthError(.tooManyAttempts)
        }
    }
}
