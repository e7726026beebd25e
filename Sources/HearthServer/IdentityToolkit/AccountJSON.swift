import HearthBase
import HearthCore
import HearthStore
import HearthWire

/// How accounts and tokens are answered in Identity Toolkit responses: as HearthWire's types
/// (the ones the SDKs decode), written by ``WireEncoder``. int64 fields are JSON strings
/// (`createdAt`, `lastLoginAt`, `validSince`, `expiresIn`), as in Google's discovery
/// documents; the Apple SDK reads `expiresIn` only as a string.
enum AccountJSON {
    /// How a `UserInfo` shows the password hash.
    enum PasswordHashes {
        /// `passwordHash` redacted, no `salt`: every lookup, an app's or an admin's.
        case redacted
        /// `passwordHash` and `salt` as ``ExportedPassword`` makes them: admin downloads only.
        case exported
    }

    /// The `UserInfo` object of `accounts:lookup` and `accounts:batchGet`.
    static func userRecord(_ account: AccountRecord, passwordHashes: PasswordHashes = .redacted) -> UserRecord {
        var record = UserRecord(localID: account.localID)
        record.email = account.email
        record.emailVerified = account.emailVerified
        record.displayName = account.displayName
        record.photoURL = account.photoURL
        record.phoneNumber = account.phoneNumber
        if let storedHash = account.passwordHash {
            switch passwordHashes {
            case .redacted:
                record.passwordHash = UserRecord.redactedPasswordHash
            case .exported:
                let exported = ExportedPassword(storedHash: storedHash)
                record.passwordHash = exported.passwordHash
                record.salt = exported.salt
            }
            record.passwordUpdatedAt = account.passwordUpdatedAt.map { Double($0) }
        }
        record.providerUserInfo = providerUserInfo(account)
        record.validSince = String(account.validSinceSeconds)
        record.disabled = account.disabled
        record.lastLoginAt = account.lastLoginAt.map { String($0) }
        record.createdAt = String(account.createdAt)
        record.lastRefreshAt = account.lastRefreshAt.map { Timestamp.iso8601(milliseconds: $0) }
        record.customAttributes = account.customAttributes
        record.emailLinkSignin = account.emailLinkSignIn ? true : nil
        return record
    }

    /// The linked providers: `password` for an account with an email and a password (or a
    /// link sign-in), keyed by the email, and `phone`, keyed by the number, as Firebase has them.
    static func providerUserInfo(_ account: AccountRecord) -> [ProviderUserInfo] {
        account.providerIDs.compactMap { providerID in
            switch providerID {
            case "password":
                guard let email = account.email else { return nil }
                return ProviderUserInfo(
                    providerID: providerID,
                    federatedID: email,
                    email: email,
                    rawID: email,
                    displayName: account.displayName,
                    photoURL: account.photoURL
                )
            case "phone":
                guard let phoneNumber = account.phoneNumber else { return nil }
                return ProviderUserInfo(providerID: providerID, phoneNumber: phoneNumber, rawID: phoneNumber)
            default:
                return nil
            }
        }
    }

    /// The `SetAccountInfoResponse` of `accounts:update`: the account as it is now, and new
    /// tokens when the update started a session.
    static func updateResponse(_ account: AccountRecord, tokens: SessionTokens?) -> UpdateAccountResponse {
        UpdateAccountResponse(
            kind: "identitytoolkit#SetAccountInfoResponse",
            localID: account.localID,
            email: account.email,
            displayName: account.displayName,
            emailVerified: account.emailVerified,
            idToken: tokens?.idToken,
            refreshToken: tokens?.refreshToken,
            expiresIn: tokens.map { String($0.expiresInSeconds) },
            photoURL: account.photoURL,
            passwordHash: account.passwordHash == nil ? nil : UserRecord.redactedPasswordHash,
            providerUserInfo: providerUserInfo(account)
        )
    }

    /// The answer to sign-up and to an admin's account creation: the account, and a session
    /// when one was started.
    static func signUpResponse(_ account: AccountRecord, tokens: SessionTokens?) -> SignInResponse {
        SignInResponse(
            kind: "identitytoolkit#SignupNewUserResponse",
            localID: account.localID,
            email: account.email,
            displayName: account.displayName,
            idToken: tokens?.idToken,
            refreshToken: tokens?.refreshToken,
            expiresIn: tokens.map { String($0.expiresInSeconds) }
        )
    }
}
