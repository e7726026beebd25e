public import HearthStore

/// When an account's sessions end, and which tokens that refuses.
///
/// A revocation (a password change, disabling the account, or an admin's `validSince`, which
/// firebase-admin's `revoke_refresh_tokens` sends) has an instant in milliseconds, kept as the
/// account's `sessionsRevokedAt`, and every refresh token keeps the millisecond it was issued
/// (`createdAt`). A refresh token issued at or before the latest revocation is refused with
/// `TOKEN_EXPIRED`, so a session begun in the same second as the revocation ends with the others,
/// and a sign-in after it starts a session that works.
///
/// ID tokens keep Firebase's own rule, in whole seconds: a token whose `iat` is before the
/// account's `validSince` is revoked. That is the comparison firebase-admin's
/// `verify_id_token(..., check_revoked=True)` makes with the `validSince` a lookup answers, so a
/// token issued in the second of the revocation still verifies there, as against Firebase; its
/// refresh token does not.
public enum SessionRevocation {
    /// The instant of a revocation asked for at `nowMilliseconds` (a password change, disabling):
    /// now, or one millisecond after the account's previous revocation when that was as late.
    /// A change that revokes and starts a session issues it one millisecond after its
    /// revocation (``sessionStart(nowMilliseconds:after:)``), so a revocation asked for in the
    /// same millisecond must end at that instant to end that session too.
    public static func instant(nowMilliseconds: Int64, after previous: Int64?) -> Int64 {
        now(nowMilliseconds, after: previous)
    }

    /// The revocation instant an admin's `validSince` (whole seconds) asks for: the end of that
    /// second, but never later than the request (as ``instant(nowMilliseconds:after:)`` makes
    /// it). Firebase's Admin SDKs send the current second, truncated, so this revokes every
    /// session begun up to the request; a `validSince` in the future cannot refuse sign-ins that
    /// come after the request.
    public static func instant(validSinceSeconds: Int64, nowMilliseconds: Int64, after previous: Int64?) -> Int64 {
        // Compared before multiplying, so an absurd `validSince` cannot overflow.
        guard validSinceSeconds < nowMilliseconds / 1_000 else {
            return instant(nowMilliseconds: nowMilliseconds, after: previous)
        }
        return validSinceSeconds * 1_000 + 999
    }

    /// When a session that a revoking change starts itself is issued: just after the
    /// account's latest revocation, so it outlives it. Every other sign-in is issued at the
    /// instant it is handled, so one that checked the old password before a password change
    /// committed is refused with the sessions the change ended.
    public static func sessionStart(nowMilliseconds: Int64, after revokedAt: Int64?) -> Int64 {
        now(nowMilliseconds, after: revokedAt)
    }

    /// `nowMilliseconds`, or the millisecond after `instant` when that is not earlier.
    private static func now(_ nowMilliseconds: Int64, after instant: Int64?) -> Int64 {
        instant.map { max(nowMilliseconds, $0 + 1) } ?? nowMilliseconds
    }

    /// Whether a refresh token of `account` is refused: it was issued at or before the
    /// account's latest revocation, or it was marked revoked when that was recorded.
    public static func refuses(_ token: RefreshTokenRecord, of account: AccountRecord) -> Bool {
        if token.revokedAt != nil { return true }
        guard let revokedAt = account.sessionsRevokedAt else { return false }
        return token.createdAt <= revokedAt
    }

    /// Whether an ID token issued at `issuedAtSeconds` (its `iat`) is revoked for `account`.
    public static func refuses(idTokenIssuedAt issuedAtSeconds: Int64, of account: AccountRecord) -> Bool {
        issuedAtSeconds < account.validSinceSeconds
    }
}
