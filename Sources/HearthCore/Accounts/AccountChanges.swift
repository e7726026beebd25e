public import HearthStore

/// A set of edits to one account, as `accounts:update` (client or admin), a password reset or
/// an email action asks for them. A field left `nil` is unchanged; a double optional set to
/// `.some(nil)` removes the value.
///
/// Values are already validated and normalised (``EmailAddress``, ``PasswordPolicy``,
/// ``CustomClaims``) and the password already hashed: applying changes is pure and cheap, so
/// it can run inside a write transaction.
public struct AccountChanges: Sendable, Equatable {
    public var email: String??
    /// A new password hash (from ``PasswordHasher``), or `.some(nil)` to remove the password.
    public var passwordHash: String??
    public var displayName: String??
    public var photoURL: String??
    public var emailVerified: Bool?
    public var disabled: Bool?
    /// Tokens issued before this second become revoked.
    public var validSinceSeconds: Int64?
    public var customAttributes: String??
    public var language: String??
    public var emailLinkSignIn: Bool?

    public init() {}

    public var isEmpty: Bool { self == AccountChanges() }

    /// The outcome of applying changes.
    public struct Outcome: Sendable, Equatable {
        public var account: AccountRecord
        /// Whether every existing session must end: the password changed, the account was
        /// disabled, or `validSince` moved forward.
        public var revokesSessions: Bool
        /// The address the account had before an email change, if the email changed.
        public var previousEmail: String??
    }
}

extension AccountRecord {
    /// The account with `changes` applied at `nowMilliseconds`.
    ///
    /// A password change also moves `validSince` to now, so ID tokens issued before it stop
    /// being accepted (tokens issued in the same second survive, as in Firebase, whose
    /// `validSince` has one-second precision).
    public func applying(_ changes: AccountChanges, nowMilliseconds: Int64) -> AccountChanges.Outcome {
        var account = self
        var revokes = false
        var previousEmail: String??
        let nowSeconds = nowMilliseconds / 1_000

        if let email = changes.email, email != self.email {
            previousEmail = .some(self.email)
            account.email = email
            // A new address is unproven until the change itself says otherwise.
            account.emailVerified = false
        }
        if let passwordHash = changes.passwordHash {
            account.passwordHash = passwordHash
            account.passwordUpdatedAt = passwordHash == nil ? nil : nowMilliseconds
            account.validSinceSeconds = max(account.validSinceSeconds, nowSeconds)
            revokes = true
        }
        if let displayName = changes.displayName { account.displayName = displayName }
        if let photoURL = changes.photoURL { account.photoURL = photoURL }
        if let emailVerified = changes.emailVerified { account.emailVerified = emailVerified }
        if let disabled = changes.disabled {
            if disabled && !self.disabled { revokes = true }
            account.disabled = disabled
        }
        if let validSince = changes.validSinceSeconds {
            if validSince > account.validSinceSeconds { revokes = true }
            account.validSinceSeconds = validSince
        }
        if let customAttributes = changes.customAttributes { account.customAttributes = customAttributes }
        if let language = changes.language { account.language = language }
        if let emailLinkSignIn = changes.emailLinkSignIn { account.emailLinkSignIn = emailLinkSignIn }
        return AccountChanges.Outcome(account: account, revokesSessions: revokes, previousEmail: previousEmail)
    }

    /// The sign-in providers the account has, as Firebase names them.
    public var providerIDs: [String] {
        email != nil && (passwordHash != nil || emailLinkSignIn) ? ["password"] : []
    }

    /// The sign-in methods `createAuthUri` reports for the account's email.
    public var signInMethods: [String] {
        guard email != nil else { return [] }
        var methods: [String] = []
        if passwordHash != nil { methods.append("password") }
        if emailLinkSignIn { methods.append("emailLink") }
        return methods
    }
}
