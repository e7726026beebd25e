import HearthBase
import HearthCore
import HearthHTTP
import HearthStore
import HearthWire

extension HearthApplication {
    /// `accounts:update` (legacy `setAccountInfo`).
    ///
    /// * An app sends its user's `idToken` with `email`, `password`, `displayName`,
    ///   `photoUrl`, `deleteAttribute` and `deleteProvider` (`phone` removes the phone
    ///   number). A new password ends every other session and, like a new email or
    ///   `returnSecureToken: true`, answers with fresh tokens. With
    ///   email-enumeration protection (the default) an app cannot change the email directly
    ///   (`OPERATION_NOT_ALLOWED`): it must verify the new address first.
    /// * An admin names the user by `localId` and may also set `phoneNumber`, `emailVerified`,
    ///   `disableUser`, `validSince` and `customAttributes`; disabling, a new password or a
    ///   `validSince` end the user's sessions (``SessionRevocation``).
    /// * A request with an `oobCode` applies an emailed action code (email actions).
    func update(_ request: IdentityToolkitRequest) throws -> Response {
        typealias Field = UpdateAccountRequest.CodingKeys
        let caller = try caller(of: request)
        try Self.refuseTenant(request)
        if request.has(Field.oobCode) && !request.has(Field.idToken) && !request.has(Field.localID) {
            return try updateWithActionCode(request, caller: caller)
        }

        let account: AccountRecord
        var authTime: Int64?
        if let idToken = try request.string(Field.idToken) {
            let (found, verified) = try accounts.authenticate(idToken: idToken, project: caller.project)
            account = found
            authTime = verified.authTimeSeconds
        } else if caller.isAdmin {
            guard let localID = try request.string(Field.localID), !localID.isEmpty else {
                throw AuthError(.missingLocalID)
            }
            guard let found = try accounts.account(project: caller.project, localID: localID) else {
                throw AuthError.userNotFound
            }
            account = found
        } else {
            throw AuthError(.missingIDToken)
        }

        let changes = try accountChanges(request, caller: caller)
        // An app links a phone number only by proving it with an SMS code, which Hearth does
        // not send; sending back the number the account has is no change.
        if !caller.isAdmin, case .some(.some(let phone)) = changes.phoneNumber, phone != account.phoneNumber {
            throw AuthError.phoneSignInNotAllowed
        }
        let credentialsChanged = changes.passwordHash != nil || changes.email != nil
        // Sessions belong to users: an admin naming a `localId` gets no tokens.
        let returnSecureToken = try request.bool(Field.returnSecureToken) ?? false
        let startSession = (!caller.isAdmin || request.has(Field.idToken)) && (credentialsChanged || returnSecureToken)
        if changes.passwordHash != nil { authTime = nil }
        let (outcome, tokens) = try accounts.update(
            project: caller.project,
            localID: account.localID,
            changes: changes,
            startSession: startSession,
            authTimeSeconds: authTime
        )

        return .wire(AccountJSON.updateResponse(outcome.account, tokens: tokens))
    }

    /// The `deleteAttribute` values of Google's `UserAttributeName` enum, in proto order.
    static let userAttributeNames = [
        "USER_ATTRIBUTE_NAME_UNSPECIFIED", "EMAIL", "DISPLAY_NAME", "PROVIDER", "PHOTO_URL", "PASSWORD",
        "RAW_USER_INFO",
    ]

    /// The changes an `accounts:update` asks for, validated (and a new password hashed).
    func accountChanges(_ request: IdentityToolkitRequest, caller: IdentityToolkitCaller) throws -> AccountChanges {
        typealias Field = UpdateAccountRequest.CodingKeys
        var changes = AccountChanges()
        if let email = try request.string(Field.email) {
            if !caller.isAdmin && caller.project.settings.emailEnumerationProtection {
                throw AuthError(.operationNotAllowed, "Please verify the new email before changing email.")
            }
            changes.email = try AccountService.emailChange(email).email
        }
        if let password = try request.string(Field.password) {
            changes.passwordHash = try accounts.passwordChange(password).passwordHash
        }
        if let name = try request.string(Field.displayName) { changes.displayName = .some(name.isEmpty ? nil : name) }
        if let photo = try request.string("photoUrl") { changes.photoURL = .some(photo.isEmpty ? nil : photo) }
        for attribute in try request.enumValues(Field.deleteAttribute, cases: Self.userAttributeNames) {
            switch attribute {
            case "DISPLAY_NAME": changes.displayName = .some(nil)
            case "PHOTO_URL": changes.photoURL = .some(nil)
            case "PASSWORD": changes.passwordHash = .some(nil)
            case "EMAIL" where caller.isAdmin: changes.email = .some(nil)
            default:
                throw AuthError(.operationNotAllowed, "deleteAttribute \(attribute) is not supported.")
            }
        }
        // Hearth links no providers but `password` and `phone`: deleting another one changes
        // nothing. Removing the phone number wins over setting one, as in Firebase's emulator.
        let deletedProviders = try request.strings("deleteProvider")
        if deletedProviders.contains("password") { changes.passwordHash = .some(nil) }
        if let phone = try request.string("phoneNumber"), !phone.isEmpty {
            changes.phoneNumber = .some(try PhoneNumber.validated(phone))
        }
        if deletedProviders.contains("phone") { changes.phoneNumber = .some(nil) }

        let emailVerified = try request.bool(Field.emailVerified)
        let disabled = try request.bool(Field.disableUser)
        let validSince = try request.int64(Field.validSince)
        let customAttributes = try request.string("customAttributes")
        guard caller.isAdmin else {
            if emailVerified == true || disabled != nil || validSince != nil || customAttributes != nil {
                throw AuthError(
                    .insufficientPermission,
                    "Only admin requests can set emailVerified, disableUser, validSince or customAttributes."
                )
            }
            return changes
        }
        changes.emailVerified = emailVerified
        changes.disabled = disabled
        if let validSince {
            guard validSince >= 0 else { throw GoogleAPIError.invalidArgument("validSince must not be negative") }
            changes.validSinceSeconds = validSince
        }
        if let customAttributes {
            changes.customAttributes = .some(try AccountService.customAttributes(customAttributes))
        }
        return changes
    }
}
