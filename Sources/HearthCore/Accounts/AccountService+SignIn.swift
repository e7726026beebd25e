import HearthBase
public import HearthStore

extension AccountService {
    /// `accounts:signUp`: a new email/password account, signed in.
    ///
    /// - Parameters:
    ///   - language: the app's language (`X-Firebase-Locale`), kept as the user's preferred
    ///     language for emails and pages; ignored unless it looks like a BCP 47 tag.
    ///   - clientAddress: the caller's IP address, for the per-client sign-up limit.
    public func signUp(
        project: Project,
        email: String?,
        password: String?,
        displayName: String?,
        language: String? = nil,
        clientAddress: String
    ) throws -> SignedIn {
        guard email != nil || password != nil else {
            throw AuthError(.operationNotAllowed, "Anonymous sign-in is not enabled for this project.")
        }
        guard let email, !email.isEmpty else { throw AuthError(.missingEmail) }
        guard let normalized = EmailAddress.normalized(email) else { throw AuthError.invalidEmail }
        guard let password, !password.isEmpty else { throw AuthError(.missingPassword) }
        try PasswordPolicy.validate(password)

        let limit = limits.signUpsPerClient
        let clientKey = "\(project.id):\(clientAddress)"
        let checkedAt = clock.nowSeconds()
        if try store.read({ try limit.isExhausted(clientKey, in: $0, now: checkedAt) }) {
            throw AuthError.signUpQuota(retryAfterSeconds: limit.secondsLeftInWindow(now: checkedAt))
        }
        // A taken email is refused before the hash is paid for; the insert re-checks.
        if try store.read({ try $0.account(projectID: project.id, email: normalized) }) != nil {
            throw AuthError.emailExists
        }
        let passwordHash = hasher.hash(password)
        let now = clock.nowMilliseconds()
        let account = AccountRecord(
            projectID: project.id,
            localID: Self.newLocalID(),
            email: normalized,
            passwordHash: passwordHash,
            passwordUpdatedAt: now,
            displayName: displayName.flatMap { $0.isEmpty ? nil : $0 },
            language: language.flatMap(Self.languageTag),
            createdAt: now,
            lastLoginAt: now,
            validSinceSeconds: now / 1_000
        )
        let refreshToken = try write { [self] transaction in
            guard try limit.record(clientKey, in: transaction, now: now / 1_000) else {
                throw AuthError.signUpQuota(retryAfterSeconds: limit.secondsLeftInWindow(now: now / 1_000))
            }
            try transaction.insertAccount(account)
            return try insertRefreshToken(
                for: account,
                authTimeSeconds: now / 1_000,
                in: transaction,
                nowMilliseconds: now
            )
        }
        return try signedIn(account, project: project, refreshToken: refreshToken, at: now, isNewUser: true)
    }

    /// `accounts:signInWithPassword`, waiting for the answer (see `prepareSignIn`). Not for a
    /// hashing thread, which would wait for its own pool.
    public func signIn(project: Project, email: String?, password: String?, clientAddress: String) throws -> SignedIn {
        let prepared = try prepareSignIn(
            project: project,
            email: email,
            password: password,
            clientAddress: clientAddress
        )
        let answer = ConditionLock<Result<SignedIn, any Error>?>(nil)
        prepared.run { result in answer.withLockThenBroadcast { $0 = result } }
        return try answer.wait(until: { $0 != nil }) { $0! }.get()
    }

    /// A sign-in whose request has passed its checks and whose account has been read: `run`
    /// does the rest without holding the calling thread and calls `completion` once — on a
    /// hashing thread, or on the store's writer after the session's commit.
    public struct PreparedSignIn: Sendable {
        public let run: @Sendable (_ completion: @escaping @Sendable (Result<SignedIn, any Error>) -> Void) -> Void
    }

    /// `accounts:signInWithPassword`: checks the request and reads the account on the calling
    /// thread (throwing what is wrong with the request, or `TOO_MANY_ATTEMPTS_TRY_LATER`), and
    /// answers the rest to do: the password's verification on the hasher's threads, then the
    /// session's durable write, so that a server thread serves other requests meanwhile.
    ///
    /// Known and unknown emails cost the same: exactly one Argon2id verification each (a real
    /// one, or one against a dummy hash), the same store reads, and the same failure counting.
    /// Failures back off per (account, client address) and per client address (``SignInLimits``):
    /// while either waits, attempts from that address are refused before any hashing with
    /// `TOO_MANY_ATTEMPTS_TRY_LATER` (429, `Retry-After`); other addresses are not affected.
    /// With email-enumeration protection (the default) both kinds of failure answer
    /// `INVALID_LOGIN_CREDENTIALS`; without it, `EMAIL_NOT_FOUND` or `INVALID_PASSWORD`.
    ///
    /// The ID token is signed on the hashing thread right after the verification, from the
    /// account as read before it, so the writer's completion only hands the answer over and the
    /// writer never waits on RSA.
    public func prepareSignIn(
        project: Project,
        email: String?,
        password: String?,
        clientAddress: String
    ) throws -> PreparedSignIn {
        guard let email, !email.isEmpty else { throw AuthError(.invalidEmail) }
        guard let normalized = EmailAddress.normalized(email) else { throw AuthError.invalidEmail }
        guard let password, !password.isEmpty else { throw AuthError(.missingPassword) }

        let accountKey = "\(project.id):\(normalized)"
        let pairKey = "\(project.id):\(normalized):\(clientAddress)"
        let clientKey = "\(project.id):\(clientAddress)"
        let perPair = limits.failuresPerAccountAndClient
        let perClient = limits.failuresPerClient
        let perAccount = limits.failuresPerAccount
        let checked = try store.read { transaction throws -> Result<AccountRecord?, AuthError> in
            let now = clock.nowSeconds()
            if let wait = perClient.waitSeconds(
                after: try perClient.failures(clientKey, in: transaction, now: now),
                now: now
            ) {
                return .failure(.signInBackoff(retryAfterSeconds: wait, acrossAccounts: true))
            }
            let pairFailures = try perPair.failures(pairKey, in: transaction, now: now)
            if pairFailures.count > 0 {
                // Under a distributed attack every address that has failed on the account backs
                // off from its first failure; one that has not is never slowed by it.
                let underAttack = try perAccount.isExhausted(accountKey, in: transaction, now: now)
                if let wait = perPair.waitSeconds(after: pairFailures, now: now, freeFailures: underAttack ? 0 : nil) {
                    return .failure(.signInBackoff(retryAfterSeconds: wait, acrossAccounts: false))
                }
            }
            return .success(try transaction.account(projectID: project.id, email: normalized))
        }
        let found = try checked.get()
        // nil: no hash to check, so the verification is against the dummy.
        let storedHash = found?.passwordHash.flatMap {
            password.utf8.count <= PasswordPolicy.maximumBytes ? $0 : nil
        }

        return PreparedSignIn { [self] completion in
            hasher.verify(password, against: storedHash) { [self] matches in
                guard let account = found, matches else {
                    let now = clock.nowSeconds()
                    let refusal =
                        project.settings.emailEnumerationProtection
                        ? AuthError(.invalidLoginCredentials)
                        : found == nil ? AuthError(.emailNotFound) : AuthError(.invalidPassword)
                    let failure = StoreWrite { _, transaction throws(StoreError) in
                        try FailureBackoff.recordFailure(
                            [(perPair, pairKey), (perClient, clientKey)],
                            in: transaction,
                            now: now
                        )
                        _ = try perAccount.record(accountKey, in: transaction, now: now)
                    } afterCommit: { () throws -> SignedIn in
                        throw refusal
                    }
                    return store.write(failure, completion: completion)
                }
                if account.disabled { return completion(.failure(AuthError.userDisabled)) }

                let now = clock.nowMilliseconds()
                let idToken: String
                do {
                    idToken = try idTokens.issue(
                        for: account,
                        project: project,
                        authTimeSeconds: now / 1_000,
                        issuedAtSeconds: now / 1_000
                    )
                } catch {
                    return completion(.failure(error))
                }
                let session = StoreWrite { reading -> AccountRecord in
                    let current = try reading.account(projectID: project.id, localID: account.localID) ?? account
                    // Disabled while the hash ran: no session.
                    if current.disabled { throw AuthError.userDisabled }
                    return current
                } apply: { [self] current, transaction throws(StoreError) in
                    var current = current
                    try perPair.reset(pairKey, in: transaction)
                    current.lastLoginAt = now
                    try transaction.updateAccount(current)
                    let refreshToken = try insertRefreshToken(
                        for: current,
                        authTimeSeconds: now / 1_000,
                        in: transaction,
                        nowMilliseconds: now
                    )
                    return (current, refreshToken)
                } afterCommit: { current, refreshToken in
                    let tokens = SessionTokens(
                        idToken: idToken,
                        refreshToken: refreshToken,
                        expiresInSeconds: project.settings.idTokenLifetimeSeconds
                    )
                    return SignedIn(account: current, tokens: tokens, isNewUser: false)
                }
                store.write(session, completion: completion)
            }
        }
    }

    /// Signs in the account with `email`, creating it if there is none — what a used email
    /// link does. The email counts as verified (the link proved it) and the account remembers
    /// it has signed in by link.
    public func signInOrCreate(project: Project, email: String) throws -> SignedIn {
        let now = clock.nowMilliseconds()
        let (account, refreshToken, isNew) = try write { [self] transaction in
            try signInOrCreate(project: project, email: email, in: transaction, nowMilliseconds: now)
        }
        return try signedIn(account, project: project, refreshToken: refreshToken, at: now, isNewUser: isNew)
    }

    /// `signInOrCreate` inside the caller's write (an email link consumes its code in the
    /// same transaction). Answers the account, its new refresh token and whether it is new;
    /// the caller signs the ID token with `sessionTokens` after the commit.
    public func signInOrCreate(
        project: Project,
        email: String,
        in transaction: WriteTransaction,
        nowMilliseconds now: Int64
    ) throws -> (account: AccountRecord, refreshToken: String, isNew: Bool) {
        guard let normalized = EmailAddress.normalized(email) else { throw AuthError.invalidEmail }
        var isNew = false
        var account: AccountRecord
        if let existing = try transaction.account(projectID: project.id, email: normalized) {
            if existing.disabled { throw AuthError.userDisabled }
            account = existing
        } else {
            isNew = true
            account = AccountRecord(
                projectID: project.id,
                localID: Self.newLocalID(),
                email: normalized,
                createdAt: now,
                validSinceSeconds: now / 1_000
            )
            try transaction.insertAccount(account)
        }
        account.emailVerified = true
        account.emailLinkSignIn = true
        account.lastLoginAt = now
        try transaction.updateAccount(account)
        let token = try insertRefreshToken(
            for: account,
            authTimeSeconds: now / 1_000,
            in: transaction,
            nowMilliseconds: now
        )
        return (account, token, isNew)
    }

    /// The answer to a sign-in whose session (refresh token) was stored at `now`: the ID
    /// token is signed here, after the write, so the store's writer never waits on RSA.
    func signedIn(
        _ account: AccountRecord,
        project: Project,
        refreshToken: String,
        at now: Int64,
        isNewUser: Bool
    ) throws -> SignedIn {
        let tokens = try sessionTokens(
            for: account,
            project: project,
            refreshToken: refreshToken,
            authTimeSeconds: now / 1_000,
            recordedAt: now
        )
        return SignedIn(account: account, tokens: tokens, isNewUser: isNewUser)
    }

    /// A language tag worth keeping: 2 to 35 characters of letters, digits, `-` and `_`
    /// (BCP 47 or the `zh_CN` form), starting with a letter; `_` becomes `-`.
    static func languageTag(_ text: String) -> String? {
        let trimmed = text.trimmingASCIIWhitespace()
        guard (2...35).contains(trimmed.utf8.count), trimmed.first?.isLetter == true,
            trimmed.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            })
        else { return nil }
        return trimmed.replacing("_", with: "-")
    }
}
