import HearthBase
import HearthCore
import HearthStore

/// How accounts and tokens are written in Identity Toolkit responses. int64 fields are JSON
/// strings (`createdAt`, `lastLoginAt`, `validSince`, `expiresIn`), as in Google's discovery
/// documents; the Apple SDK reads `expiresIn` only as a string.
enum AccountJSON {
    /// `passwordHash` as Firebase shows it to callers who may not see hashes: base64 of
    /// `REDACTED`. Only an admin's account download carries the real hash (``ExportedPassword``).
    static let redactedPasswordHash = "UkVEQUNURUQ="

    /// How a `UserInfo` shows the password hash.
    enum PasswordHashes {
        /// `passwordHash` redacted, no `salt`: every lookup, an app's or an admin's.
        case redacted
        /// `passwordHash` and `salt` as ``ExportedPassword`` makes them: admin downloads only.
        case exported
    }

    /// The `UserInfo` object of `accounts:lookup` and `accounts:batchGet`.
    static func userInfo(_ account: AccountRecord, passwordHashes: PasswordHashes = .redacted) -> JSONValue {
        var object = JSONObject()
        object["localId"] = .string(account.localID)
        if let email = account.email { object["email"] = .string(email) }
        object["emailVerified"] = .bool(account.emailVerified)
        if let name = account.displayName { object["displayName"] = .string(name) }
        if let photo = account.photoURL { object["photoUrl"] = .string(photo) }
        if let phoneNumber = account.phoneNumber { object["phoneNumber"] = .string(phoneNumber) }
        if let storedHash = account.passwordHash {
            switch passwordHashes {
            case .redacted:
                object["passwordHash"] = .string(redactedPasswordHash)
            case .exported:
                let exported = ExportedPassword(storedHash: storedHash)
                object["passwordHash"] = .string(exported.passwordHash)
                object["salt"] = .string(exported.salt)
            }
            if let updated = account.passwordUpdatedAt { object["passwordUpdatedAt"] = .int(updated) }
        }
        object["providerUserInfo"] = providerUserInfo(account)
        object["validSince"] = .string(String(account.validSinceSeconds))
        object["disabled"] = .bool(account.disabled)
        if let lastLogin = account.lastLoginAt { object["lastLoginAt"] = .string(String(lastLogin)) }
        object["createdAt"] = .string(String(account.createdAt))
        if let lastRefresh = account.lastRefreshAt {
            object["lastRefreshAt"] = .string(Timestamp.iso8601(milliseconds: lastRefresh))
        }
        if let claims = account.customAttributes { object["customAttributes"] = .string(claims) }
        if account.emailLinkSignIn { object["emailLinkSignin"] = .bool(true) }
        return .object(object)
    }

    /// The linked providers: `password` for an account with an email and a password (or a
    /// link sign-in), keyed by the email, and `phone`, keyed by the number, as Firebase has them.
    static func providerUserInfo(_ account: AccountRecord) -> JSONValue {
        var providers: [JSONValue] = []
        for providerID in account.providerIDs {
            var provider = JSONObject()
            provider["providerId"] = .string(providerID)
            switch providerID {
            case "password":
                guard let email = account.email else { continue }
                provider["federatedId"] = .string(email)
                provider["email"] = .string(email)
                provider["rawId"] = .string(email)
                if let name = account.displayName { provider["displayName"] = .string(name) }
                if let photo = account.photoURL { provider["photoUrl"] = .string(photo) }
            case "phone":
                guard let phoneNumber = account.phoneNumber else { continue }
                provider["phoneNumber"] = .string(phoneNumber)
                provider["rawId"] = .string(phoneNumber)
            default:
                continue
            }
            providers.append(.object(provider))
        }
        return .array(providers)
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
}
