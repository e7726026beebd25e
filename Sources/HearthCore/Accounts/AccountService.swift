public import HearthBase
import HearthCrypto
public import HearthStore

/// The accounts domain: users of a project, their passwords and their sessions (ID tokens and
/// refresh tokens). Routes translate the wire into calls here; email actions build on the same
/// calls (find by email, set the password, verify or change the email, sign in by link).
///
/// Every method that hashes a password does so through the hasher (about 30 ms of one core
/// with Argon2id, on its own threads) and never inside a write transaction, so the store's
/// single writer is never held by a hash.
public final class AccountService: Sendable {
    public let store: any Store
    public let clock: any Clock
    public let idTokens: IDTokens
    public let hasher: any PasswordHasher
    public let limits: SignInLimits

    /// How long a revoked refresh token is remembered (answering `TOKEN_EXPIRED`) before the
    /// maintenance sweep forgets it (then it answers `INVALID_REFRESH_TOKEN`): 30 days.
    public static let revokedTokenMemorySeconds: Int64 = 30 * 86_400

    public init(
        store: any Store,
        clock: any Clock,
        keys: KeyRing,
        hasher: any PasswordHasher = Argon2PasswordHasher(),
        limits: SignInLimits = SignInLimits()
    ) {
        self.store = store
        self.clock = clock
        self.idTokens = IDTokens(keys: keys, clock: clock)
        self.hasher = hasher
        self.limits = limits
    }

    /// An account that has just signed in, with its new tokens.
    public struct SignedIn: Sendable {
        public var account: AccountRecord
        public var tokens: SessionTokens
        /// Whether the sign-in created the account.
        public var isNewUser: Bool
    }

    // MARK: - Reading

    public func account(project: Project, localID: String) throws -> AccountRecord? {
        try store.read { try $0.account(projectID: project.id, localID: localID) }
    }

    /// The account with this email (any spelling that normalises to it); `nil` for an unknown
    /// or malformed address.
    public func account(project: Project, email: String) throws -> AccountRecord? {
        guard let normalized = EmailAddress.normalized(email) else { return nil }
        return try store.read { try $0.account(projectID: project.id, email: normalized) }
    }

    /// The accounts matching any of the IDs, emails or phone numbers, each once, in the order
    /// asked (IDs, then emails, then phone numbers, as Firebase answers).
    public func lookup(
        project: Project,
        localIDs: [String],
        emails: [String],
        phoneNumbers: [String] = []
    ) throws -> [AccountRecord] {
        try store.read { transaction in
            var found: [AccountRecord] = []
            var seen = Set<String>()
            for localID in localIDs {
                if let account = try transaction.account(projectID: project.id, localID: localID),
                    seen.insert(account.localID).inserted
                {
                    found.append(account)
                }
            }
            for email in emails {
                guard let normalized = EmailAddress.normalized(email) else { continue }
                if let account = try transaction.account(projectID: project.id, email: normalized),
                    seen.insert(account.localID).inserted
                {
                    found.append(account)
                }
            }
            for phoneNumber in phoneNumbers {
                if let account = try transaction.account(projectID: project.id, phoneNumber: phoneNumber),
                    seen.insert(account.localID).inserted
                {
                    found.append(account)
                }
            }
            return found
        }
    }

    /// One page of the project's accounts, ordered by ID.
    /// - Returns: the accounts and the token of the next page (`nil` on the last page).
    public func list(project: Project, pageToken: String?, maxResults: Int) throws -> (
        accounts: [AccountRecord], nextPageToken: String?
    ) {
        precondition(maxResults > 0, "a page holds at least one account")
        var after: String?
        if let pageToken, !pageToken.isEmpty {
            guard let bytes = Base64URL.decode(pageToken), let localID = String(validating: bytes, as: UTF8.self)
            else { throw AuthError(.invalidPageSelection, "The page token is not valid.") }
            after = localID
        }
        let page = try store.read {
            try $0.accounts(projectID: project.id, after: after, limit: maxResults + 1)
        }
        guard page.count > maxResults else { return (page, nil) }
        let accounts = Array(page.prefix(maxResults))
        return (accounts, Base64URL.encode(Array(accounts[accounts.count - 1].localID.utf8)))
    }

    // MARK: - Sessions

    /// The account an ID token speaks for, refusing tokens of a deleted, disabled or revoked
    /// account.
    public func authenticate(idToken: String, project: Project) throws -> (AccountRecord, IDTokens.Verified) {
        guard !idToken.isEmpty else { throw AuthError(.missingIDToken) }
        let verified = try idTokens.verify(idToken, project: project)
        guard let account = try account(project: project, localID: verified.localID) else {
            throw AuthError.userNotFound
        }
        if account.disabled { throw AuthError.userDisabled }
        if SessionRevocation.refuses(idTokenIssuedAt: verified.issuedAt, of: account) { throw AuthError.tokenExpired }
        return (account, verified)
    }

    /// Exchanges a refresh token for a new ID token. The refresh token itself stays the same,
    /// as with Firebase. The only store access is one read (plus a last-refresh time written
    /// in the background at most once a minute per account).
    public func refresh(project: Project, refreshToken: String) throws -> (AccountRecord, SessionTokens) {
        guard !refreshToken.isEmpty else { throw AuthError(.missingRefreshToken) }
        guard refreshToken.utf8.count <= RefreshToken.maximumLength else { throw AuthError.invalidRefreshToken }
        let hash = RefreshToken.hash(refreshToken)
        guard let (record, account) = try store.read({ try $0.refreshTokenWithAccount(hash: hash) }),
            record.projectID == project.id
        else { throw AuthError.invalidRefreshToken }
        if account.disabled { throw AuthError.userDisabled }
        if SessionRevocation.refuses(record, of: account) {
            if record.revokedAt == nil, let revokedAt = account.sessionsRevokedAt {
                // Recorded after the revocation it predates (a sign-in racing it), the token was
                // not marked by it: mark it now, so the sweep forgets it in time.
                let projectID = account.projectID
                let localID = account.localID
                let now = clock.nowMilliseconds()
                store.enqueueWrite {
                    try $0.revokeRefreshTokens(
                        projectID: projectID,
                        localID: localID,
                        issuedThrough: revokedAt,
                        at: now
                    )
                }
            }
            throw AuthError.tokenExpired
        }
        let idToken = try idTokens.issue(for: account, project: project, authTimeSeconds: record.authTimeSeconds)
        let now = clock.nowMilliseconds()
        if (account.lastRefreshAt ?? 0) < now - 60_000 {
            let projectID = project.id
            let localID = account.localID
            store.enqueueWrite { try $0.touchAccountRefresh(projectID: projectID, localID: localID, at: now) }
        }
        let tokens = SessionTokens(
            idToken: idToken,
            refreshToken: refreshToken,
            expiresInSeconds: project.settings.idTokenLifetimeSeconds
        )
        return (account, tokens)
    }

    /// Stores a new refresh token for `account` inside the caller's write transaction and
    /// answers the token (handed out once, never stored).
    public func insertRefreshToken(
        for account: AccountRecord,
        authTimeSeconds: Int64,
        in transaction: WriteTransaction,
        nowMilliseconds: Int64
    ) throws(StoreError) -> String {
        let (token, hash) = RefreshToken.generate()
        try transaction.insertRefreshToken(
            RefreshTokenRecord(
                tokenHash: hash,
                projectID: account.projectID,
                localID: account.localID,
                authTimeSeconds: authTimeSeconds,
                createdAt: nowMilliseconds
            )
        )
        return token
    }

    /// The tokens of a session whose refresh token is already stored (at `recordedAt`, in
    /// milliseconds): signs the ID token, issued at that instant.
    public func sessionTokens(
        for account: AccountRecord,
        project: Project,
        refreshToken: String,
        authTimeSeconds: Int64,
        recordedAt: Int64
    ) throws -> SessionTokens {
        SessionTokens(
            idToken: try idTokens.issue(
                for: account,
                project: project,
                authTimeSeconds: authTimeSeconds,
                issuedAtSeconds: recordedAt / 1_000
            ),
            refreshToken: refreshToken,
            expiresInSeconds: project.settings.idTokenLifetimeSeconds
        )
    }

    /// Starts a new session for `account` now: stores a refresh token and signs an ID token.
    public func startSession(for account: AccountRecord, project: Project) throws -> SessionTokens {
        let now = clock.nowMilliseconds()
        let refreshToken = try store.write { [self] transaction in
            try insertRefreshToken(
                for: account,
                authTimeSeconds: now / 1_000,
                in: transaction,
                nowMilliseconds: now
            )
        }
        return try sessionTokens(
            for: account,
            project: project,
            refreshToken: refreshToken,
            authTimeSeconds: now / 1_000,
            recordedAt: now
        )
    }

    // MARK: - Identifiers

    /// A new user ID: 28 characters of letters and digits, like Firebase's.
    static func newLocalID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var characters: [UInt8] = []
        characters.reserveCapacity(28)
        while characters.count < 28 {
            for byte in SecureRandom.bytes(count: 32) where byte < 248 && characters.count < 28 {
                // 248 = 4 × 62: rejecting the rest keeps every character equally likely.
                characters.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// A user ID an admin chose: 1 to 128 characters, as Firebase allows.
    static func validateLocalID(_ localID: String) throws(AuthError) {
        guard !localID.isEmpty, localID.utf8.count <= 128 else {
            throw AuthError(.invalidLocalID, "The user ID must be a non-empty string of at most 128 characters.")
        }
    }

    /// Runs a write, turning a unique-index refusal into `PHONE_NUMBER_EXISTS` or
    /// `EMAIL_EXISTS`. Callers check the ID, the email and the phone number inside the write
    /// first; a refusal is left only when another node takes the same value at the same time.
    /// Both SQLite and PostgreSQL name the column or index (`accounts_by_phone_number`) in the
    /// message, which is how the two unique values are told apart.
    func write<Result: Sendable>(
        _ body: @escaping @Sendable (WriteTransaction) throws -> Result
    ) throws -> Result {
        do {
            return try store.write(body)
        } catch let error as StoreError where error.kind == .uniqueViolation {
            throw error.message.contains("phone_number") ? AuthError.phoneNumberExists : AuthError.emailExists
        }
    }
}
