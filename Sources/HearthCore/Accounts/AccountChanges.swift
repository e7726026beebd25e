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
    /// An admin's `validSince`: ID tokens issued before this second become revoked, and
    /// refresh tokens issued up to the end of it (``SessionRevocation``).
    public var validSinceSeconds: Int64?
    /// A new E.164 phone number (validated by ``PhoneNumber``), or `.some(nil)` to remove it.
    public var phoneNumber: String??
    public var customAttributes: String??
    public var language: String??
    public var emailLinkSignIn: Bool?

    public init() {}

    public var isEmpty: Bool { self == AccountChanges() }

    /// The outcome of applying changes.
    public struct Outcome: Sendable, Equatable {
        public var account: AccountRecord
        /// Whether sessions end: the password changed, the account was disabled, or
        /// `validSince` revokes sessions issued since the last revocation. The account's
        /// `sessionsRevokedAt` is then the instant they end at.
        public var revokesSessions: Bool
        /// The address the account had before an email change, if the email changed.
        public var previousEmail: String??
    }
}

extension AccountRecord {
    /// The account with `changes` applied at `nowMilliseconds`.
    ///
    /// A password change or disabling the account revokes every session issued up to
    /// `nowMilliseconds`, and a password change also moves `validSince` to now, so ID tokens
    /// issued before this second stop being accepted (ID tokens issued in the same second
    /// survive, as in Firebase, whose `validSince` has one-second precision; their refresh
    /// tokens do not). An admin's `validSince` sets `validSince` as given (capped at now) and
    /// revokes up to the instant
    /// ``SessionRevocation/instant(validSinceSeconds:nowMilliseconds:after:)`` makes of it. A
    /// revocation instant never moves back: an ended session stays ended, even when
    /// `validSince` is set to an earlier second.
    public func applying(_ changes: AccountChanges, nowMilliseconds: Int64) -> AccountChanges.Outcome {
        var account = self
        var previousEmail: String??
        let nowSeconds = nowMilliseconds / 1_000
        var revocation: Int64?

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
            revocation = SessionRevocation.instant(nowMilliseconds: nowMilliseconds, after: sessionsRevokedAt)
        }
        if let displayName = changes.displayName { account.displayName = displayName }
        if let photoURL = changes.photoURL { account.photoURL = photoURL }
        if let emailVerified = changes.emailVerified { account.emailVerified = emailVerified }
        if let disabled = changes.disabled {
            if disabled && !self.disabled {
                revocation = SessionRevocation.instant(nowMilliseconds: nowMilliseconds, after: sessionsRevokedAt)
            }
            account.disabled = disabled
        }
        if let validSince = changes.validSinceSeconds {
            let instant = SessionRevocation.instant(
                validSinceSeconds: validSince,
                nowMilliseconds: nowMilliseconds,
                after: sessionsRevokedAt
            )
            account.validSinceSeconds = min(validSince, nowSeconds)
            revocation = max(revocation ?? instant, instant)
        }
        if let phoneNumber = changes.phoneNumber { account.phoneNumber = phoneNumber }
        if let customAttributes = changes.customAttributes { account.customAttributes = customAttributes }
        if let language = changes.language { account.language = language }
        if let emailLinkSignIn = changes.emailLinkSignIn { account.emailLinkSignIn = emailLinkSignIn }
        // No session is older than its account, so before any revocation the sessions ended
        // are those issued before the account was created: none.
        var revokes = false
        if let revocation, revocation > sessionsRevokedAt ?? (createdAt - 1) {
            account.sessionsRevokedAt = revocation
            revokes = true
        }
        return AccountChanges.Outcome(account: account, revokesSessions: revokes, previousEmail: previousEmail)
    }

    /// The providers linked to the account, as Firebase names them: `password` for an email
    /// with a password or a link sign-in, `phone` for a phone number (which Hearth keeps as an
    /// attribute: nobody signs in with it).
    public var providerIDs: [String] {
        var providers: [String] = []
        if email != nil && (passwordHash != nil || emailLinkSignIn) { providers.append("password") }
        if phoneNumber != nil { providers.append("phone") }
        return providers
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
