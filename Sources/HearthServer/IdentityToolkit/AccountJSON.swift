import HearthBase
import HearthCore
import HearthStore

/// How accounts and tokens are written in Identity Toolkit responses. int64 fields are JSON
/// strings (`createdAt`, `lastLoginAt`, `validSince`, `expiresIn`), as in Google's discovery
/// documents; the Apple SDK reads `expiresIn` only as a string.
enum AccountJSON {
    /// `passwordHash` as Firebase shows it to callers who may not see hashes: base64 of
    /// `REDACTED`. Hearth never reveals its Argon2id hashes, to anyone.
    static let redactedPasswordHash = "UkVEQUNURUQ="

    /// The `UserInfo` object of `accounts:lookup` and `accounts:batchGet`.
    static func userInfo(_ account: AccountRecord) -> JSONValue {
        var object = JSONObject()
        object["localId"] = .string(account.localID)
        if let email = account.email { object["email"] = .string(email) }
        object["emailVerified"] = .bool(account.emailVerified)
        if let name = account.displayName { object["displayName"] = .string(name) }
        if let photo = account.photoURL { object["photoUrl"] = .string(photo) }
        if account.passwordHash != nil {
            object["passwordHash"] = .string(redactedPasswordHash)
            if let updated = account.passwordUpdatedAt { object["passwordUpdatedAt"] = .int(updated) }
        }
        object["providerUserInfo"] = providerUserInfo(account)
        object["validSince"] = .string(String(account.validSinceSeconds))
        object["disabled"] = .bool(account.disabled)
        if let lastLogin = account.lastLoginAt { object["lastLoginAt"] = .string(String(lastLogin)) }
        object["createdAt"] = .string(String(account.createdAt))
        if let lastRefresh = account.lastRefreshAt { object["lastRefreshAt"] = .string(rfc3339(lastRefresh)) }
        if let claims = account.customAttributes { object["customAttributes"] = .string(claims) }
        if account.emailLinkSignIn { object["emailLinkSignin"] = .bool(true) }
        return .object(object)
    }

    /// The linked providers: `password` for an account with an email and a password (or a
    /// link sign-in), keyed by the email as Firebase does.
    static func providerUserInfo(_ account: AccountRecord) -> JSONValue {
        guard let email = account.email, !account.providerIDs.isEmpty else { return .array([]) }
        var provider = JSONObject()
        provider["providerId"] = .string("password")
        provider["federatedId"] = .string(email)
        provider["email"] = .string(email)
        provider["rawId"] = .string(email)
        if let name = account.displayName { provider["displayName"] = .string(name) }
        if let photo = account.photoURL { provider["photoUrl"] = .string(photo) }
        return .array([.object(provider)])
    }

    /// The `SetAccountInfoResponse` of `accounts:update`: the account as it is now, and new
    /// tokens when the update started a session.
    static func updated(_ account: AccountRecord, tokens: SessionTokens?) -> JSONValue {
        var object = JSONObject()
        object["kind"] = "identitytoolkit#SetAccountInfoResponse"
        object["localId"] = .string(account.localID)
        if let email = account.email { object["email"] = .string(email) }
        if let name = account.displayName { object["displayName"] = .string(name) }
        if let photo = account.photoURL { object["photoUrl"] = .string(photo) }
        if account.passwordHash != nil { object["passwordHash"] = .string(redactedPasswordHash) }
        object["providerUserInfo"] = providerUserInfo(account)
        object["emailVerified"] = .bool(account.emailVerified)
        if let tokens { addTokens(tokens, to: &object) }
        return .object(object)
    }

    /// Adds `idToken`, `refreshToken` and `expiresIn` to a response object.
    static func addTokens(_ tokens: SessionTokens, to object: inout JSONObject) {
        object["idToken"] = .string(tokens.idToken)
        object["refreshToken"] = .string(tokens.refreshToken)
        object["expiresIn"] = .string(String(tokens.expiresInSeconds))
    }

    static func rfc3339(_ milliseconds: Int64) -> String { Timestamp.iso8601(milliseconds: milliseconds) }
}
