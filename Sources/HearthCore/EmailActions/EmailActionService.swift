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

    /// What a send decided before its changes: the code, link and email for its target.
    public struct ComposedSend: Sendable {
        let sent: Sent
        /// `nil` for a silent target: only the limits are counted.
        let code: ActionCodeRecord?
        let mail: QueuedMail?
        let generatedLink: GeneratedLink?
        /// Counted against `SendLimits` at `nowSeconds` (requests from apps only).
        let limited: (recipient: String, clientAddress: String, nowSeconds: Int64)?
    }

    /// What a send's write stored: the answer, and the email to hand to the mail workers.
    public struct Queued: Sendable {
        public let sent: Sent
        let mail: QueuedMail?
        /// A development seed's admin-generated link, listed once the write is durable.
        let generatedLink: GeneratedLink?
    }

    // MARK: - Sending

    public func sendOobCode(project: Project, _ request: Request) throws -> Sent {
        try store.write(sendOobCodeWrite(project: project, request))
    }

    /// `sendOobCode` as one durable write, for the store to run (synchronously or deferred).
    /// The request's checks happen here (throwing what is wrong with it); the plan finds the
    /// account of an address-only request and composes the code, link and email; the write
    /// counts the limits and, when they admit it, stores the code and queues the email (its
    /// value is `nil` when they refuse, having changed nothing); after the commit the email
    /// goes to the mail workers and a refusal becomes `TOO_MANY_ATTEMPTS_TRY_LATER`.
    public func sendOobCodeWrite(
        project: Project,
        _ request: Request
    ) throws -> StoreWrite<ComposedSend, Queued?, Sent> {
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
        // An address-only request finds its account in the write's plan, which the store
        // runs where that read is cheapest; the others know their account already.
        let resolve: @Sendable (ReadTransaction) throws -> Target
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
        return StoreWrite { [self] reading in
            try compose(try resolve(reading), project: project, request: request, settings: settings)
        } apply: { composed, transaction throws(StoreError) in
            if let limited = composed.limited {
                let admitted = try SendLimits(project: project).admit(
                    recipient: limited.recipient,
                    clientAddress: limited.clientAddress,
                    in: transaction,
                    now: limited.nowSeconds
                )
                guard admitted else { return nil }
            }
            if let code = composed.code { try transaction.insertActionCode(code) }
            if let mail = composed.mail { try transaction.insertOutboxMessage(mail.record) }
            return Queued(sent: composed.sent, mail: composed.mail, generatedLink: composed.generatedLink)
        } afterCommit: { [self] queued in
            guard let queued else { throw AuthError(.tooManyAttempts) }
            if let dispatcher, let mail = queued.mail { dispatcher.deliver(mail) }
            if let link = queued.generatedLink {
                generatedLinks.withLock { links in
                    links.append(link)
                    if links.count > Self.generatedLinkLimit { links.removeFirst() }
                }
            }
            return queued.sent
        }
    }

    /// Composes the code, link and email of a request for `target` (for a silent target,
    /// only what its answer and limits need).
    private func compose(
        _ target: Target,
        project: Project,
        request: Request,
        settings: AcceptedActionCodeSettings
    ) throws -> ComposedSend {
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
        var limited: (recipient: String, clientAddress: String, nowSeconds: Int64)?
        if case .client(let clientAddress) = request.caller { limited = (target.recipient, clientAddress, now / 1_000) }
        let sent = Sent(
            email: target.boundEmail,
            oobCode: request.returnOobLink ? code : nil,
            oobLink: request.returnOobLink ? link : nil
        )
        if target.silent {
            return ComposedSend(sent: sent, code: nil, mail: nil, generatedLink: nil, limited: limited)
        }
        return ComposedSend(
            sent: sent,
            code: record,
            mail: message.map { QueuedMail(record: $0, composed: mail) },
            generatedLink: request.returnOobLink ? action.map { GeneratedLink(action: $0, createdAt: now) } : nil,
            limited: limited
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

    /// Counts one email against both limits if both have room, and answers whether it did;
    /// a refusal leaves both counts as they were.
    func admit(
        recipient: String,
        clientAddress: String,
        in transaction: WriteTransaction,
        now: Int64
    ) throws(StoreError) -> Bool {
        try RateLimit.admit(
            [(perRecipient, recipient), (perClientAddress, clientAddress)],
            in: transaction,
            now: now
        )
    }
}
