import Foundation

/// Paths of the Identity Toolkit v1 and Secure Token calls.
public enum IdentityToolkitPath {
    /// `accounts:signUp`.
    public static let signUp = "/v1/accounts:signUp"
    /// `accounts:signInWithPassword`.
    public static let signInWithPassword = "/v1/accounts:signInWithPassword"
    /// `accounts:sendOobCode`.
    public static let sendOobCode = "/v1/accounts:sendOobCode"
    /// `accounts:resetPassword`.
    public static let resetPassword = "/v1/accounts:resetPassword"
    /// `accounts:update`.
    public static let update = "/v1/accounts:update"
    /// `accounts:lookup`.
    public static let lookup = "/v1/accounts:lookup"
    /// `accounts:delete`.
    public static let delete = "/v1/accounts:delete"
    /// `accounts:signInWithEmailLink`.
    public static let signInWithEmailLink = "/v1/accounts:signInWithEmailLink"
    /// Secure Token refresh (`/v1/token`).
    public static let token = "/v1/token"
    /// Admin calls under a project.
    public static func admin(project: String, _ method: String) -> String { "/v1/projects/\(project)/\(method)" }
}

/// `accounts:signUp` body.
public struct SignUpRequest: Sendable, Codable, Equatable {
    /// The email address.
    public var email: String?
    /// The password, in the clear over TLS.
    public var password: String?
    /// The display name.
    public var displayName: String?
    /// Whether to answer an ID token and a refresh token.
    public var returnSecureToken: Bool?
    /// Makes the value from its fields.
    public init(email: String?, password: String?, displayName: String? = nil, returnSecureToken: Bool? = true) {
        self.email = email
        self.password = password
        self.displayName = displayName
        self.returnSecureToken = returnSecureToken
    }
    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable { case email, password, displayName, returnSecureToken }
}

/// The answer to sign-up and the sign-in calls: the user and a session.
public struct SignInResponse: Sendable, Codable, Equatable {
    /// Google's response kind, e.g. `identitytoolkit#SignupNewUserResponse`.
    public var kind: String?
    /// The user's ID (`localId`).
    public var localID: String
    /// The email address.
    public var email: String?
    /// The display name.
    public var displayName: String?
    /// The photo URL (password sign-in names it `profilePicture`).
    public var profilePicture: String?
    /// Whether the email was already registered.
    public var registered: Bool?
    /// Whether this call created the account.
    public var isNewUser: Bool?
    /// The ID token (a JWT).
    public var idToken: String?
    /// The refresh token.
    public var refreshToken: String?
    /// Seconds as a decimal string (`"3600"`).
    public var expiresIn: String?
    /// Makes the value from its fields.
    public init(
        kind: String? = nil,
        localID: String,
        email: String? = nil,
        displayName: String? = nil,
        idToken: String? = nil,
        refreshToken: String? = nil,
        expiresIn: String? = nil,
        registered: Bool? = nil,
        isNewUser: Bool? = nil,
        profilePicture: String? = nil
    ) {
        self.kind = kind
        self.localID = localID
        self.email = email
        self.displayName = displayName
        self.profilePicture = profilePicture
        self.registered = registered
        self.isNewUser = isNewUser
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
    /// The wire field names, in the order the server writes them.
    public enum CodingKeys: String, CodingKey, Sendable {
        case kind
        case localID = "localId"
        case email, displayName, profilePicture, registered, isNewUser, idToken, refreshToken, expiresIn
    }
}

/// `accounts:signInWithPassword` body.
public struct SignInWithPasswordRequest: Sendable, Codable, Equatable {
    /// The email address.
    public var email: String
    /// The password, in the clear over TLS.
    public var password: String
    /// Whether to answer an ID token and a refresh token.
    public var returnSecureToken: Bool?
    /// Makes the value from its fields.
    public init(email: String, password: String, returnSecureToken: Bool? = true) {
        self.email = email
        self.password = password
        self.returnSecureToken = returnSecureToken
    }
    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable { case email, password, returnSecureToken }
}

/// `accounts:signInWithEmailLink` body: the email and the link's `oobCode`.
public struct SignInWithEmailLinkRequest: Sendable, Codable, Equatable {
    /// The email address.
    public var email: String
    /// The out-of-band code of an email action.
    public var oobCode: String
    /// Links the email to a signed-in user instead of signing in.
    public var idToken: String?
    /// Makes the value from its fields.
    public init(email: String, oobCode: String, idToken: String? = nil) {
        self.email = email
        self.oobCode = oobCode
        self.idToken = idToken
    }
    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable { case email, oobCode, idToken }
}

/// `accounts:sendOobCode` body (client or, with `returnOobLink`, admin).
public struct SendOobCodeRequest: Sendable, Codable, Equatable {
    /// The operation's `requestType` string (``ActionCodeOperation/requestType``).
    public var requestType: String
    /// The email address.
    public var email: String?
    /// The new address of a VERIFY_AND_CHANGE_EMAIL.
    public var newEmail: String?
    /// The signed-in user's ID token (VERIFY_EMAIL, VERIFY_AND_CHANGE_EMAIL from a client).
    public var idToken: String?
    /// Admin only: answer the link instead of mailing it.
    public var returnOobLink: Bool?
    /// The action code settings, flattened into the body.
    public var settings: ActionCodeSettingsFields

    /// Makes the value from its fields.
    public init(
        operation: ActionCodeOperation,
        email: String? = nil,
        newEmail: String? = nil,
        idToken: String? = nil,
        returnOobLink: Bool? = nil,
        settings: ActionCodeSettingsFields = ActionCodeSettingsFields()
    ) {
        self.requestType = operation.requestType
        self.email = email
        self.newEmail = newEmail
        self.idToken = idToken
        self.returnOobLink = returnOobLink
        self.settings = settings
    }

    /// The typed operation of `requestType`.
    public var operation: ActionCodeOperation { ActionCodeOperation(requestType: requestType) }

    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable { case requestType, email, newEmail, idToken, returnOobLink }

    /// Decodes the body, its settings read from the same object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requestType = try container.decode(String.self, forKey: .requestType)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        newEmail = try container.decodeIfPresent(String.self, forKey: .newEmail)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        returnOobLink = try container.decodeIfPresent(Bool.self, forKey: .returnOobLink)
        settings = try ActionCodeSettingsFields(from: decoder)
    }

    /// Encodes the body, its settings written into the same object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(requestType, forKey: .requestType)
        try container.encodeIfPresent(email, forKey: .email)
        try container.encodeIfPresent(newEmail, forKey: .newEmail)
        try container.encodeIfPresent(idToken, forKey: .idToken)
        try container.encodeIfPresent(returnOobLink, forKey: .returnOobLink)
        try settings.encode(to: encoder)
    }
}

/// The answer to `accounts:sendOobCode`; `oobLink` and `oobCode` only with `returnOobLink`.
public struct SendOobCodeResponse: Sendable, Codable, Equatable {
    /// Google's response kind, e.g. `identitytoolkit#SignupNewUserResponse`.
    public var kind: String?
    /// The email address.
    public var email: String?
    /// The out-of-band code of an email action (admin calls with `returnOobLink` only).
    public var oobCode: String?
    /// The action link (admin calls with `returnOobLink` only).
    public var oobLink: String?
    /// Makes the value from its fields.
    public init(kind: String? = nil, email: String? = nil, oobLink: String? = nil, oobCode: String? = nil) {
        self.kind = kind
        self.email = email
        self.oobCode = oobCode
        self.oobLink = oobLink
    }
}

/// `accounts:resetPassword` body: only `oobCode` inspects the code, with `newPassword` uses it.
public struct ResetPasswordRequest: Sendable, Codable, Equatable {
    /// The out-of-band code of an email action.
    public var oobCode: String
    /// The new password.
    public var newPassword: String?
    /// Makes the value from its fields.
    public init(oobCode: String, newPassword: String? = nil) {
        self.oobCode = oobCode
        self.newPassword = newPassword
    }
    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable { case oobCode, newPassword }
}

/// The answer to `accounts:resetPassword`: the code's operation and addresses.
public struct ResetPasswordResponse: Sendable, Codable, Equatable {
    /// Google's response kind, e.g. `identitytoolkit#SignupNewUserResponse`.
    public var kind: String?
    /// The email address.
    public var email: String?
    /// The address a VERIFY_AND_CHANGE_EMAIL code changes to, or a RECOVER_EMAIL restores.
    public var newEmail: String?
    /// The `requestType` string of the code.
    public var requestType: String?
    /// Makes the value from its fields.
    public init(kind: String? = nil, email: String? = nil, newEmail: String? = nil, requestType: String? = nil) {
        self.kind = kind
        self.email = email
        self.newEmail = newEmail
        self.requestType = requestType
    }
    /// The typed operation.
    public var operation: ActionCodeOperation { requestType.map(ActionCodeOperation.init(requestType:)) ?? .unknown }
}

/// `accounts:update` body: a user's own change (with `idToken`), applying a code (`oobCode`),
/// or an admin change (`localId`).
public struct UpdateAccountRequest: Sendable, Codable, Equatable {
    /// The ID token (a JWT).
    public var idToken: String?
    /// The user's ID (`localId`).
    public var localID: String?
    /// The out-of-band code of an email action.
    public var oobCode: String?
    /// The email address.
    public var email: String?
    /// The password, in the clear over TLS.
    public var password: String?
    /// The display name.
    public var displayName: String?
    /// Whether the email is verified.
    public var emailVerified: Bool?
    /// Disables (true) or enables (false) the account.
    public var disableUser: Bool?
    /// Attributes to clear (`DISPLAY_NAME`, `PHOTO_URL`).
    public var deleteAttribute: [String]?
    /// Admin: revokes refresh tokens issued before this time (seconds).
    public var validSince: String?
    /// Whether to answer an ID token and a refresh token.
    public var returnSecureToken: Bool?
    /// Makes the value from its fields.
    public init(
        idToken: String? = nil,
        localID: String? = nil,
        oobCode: String? = nil,
        email: String? = nil,
        password: String? = nil,
        displayName: String? = nil,
        emailVerified: Bool? = nil,
        disableUser: Bool? = nil,
        deleteAttribute: [String]? = nil,
        validSince: String? = nil,
        returnSecureToken: Bool? = nil
    ) {
        self.idToken = idToken
        self.localID = localID
        self.oobCode = oobCode
        self.email = email
        self.password = password
        self.displayName = displayName
        self.emailVerified = emailVerified
        self.disableUser = disableUser
        self.deleteAttribute = deleteAttribute
        self.validSince = validSince
        self.returnSecureToken = returnSecureToken
    }
    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable {
        case idToken
        case localID = "localId"
        case oobCode, email, password, displayName, emailVerified, disableUser
        case deleteAttribute, validSince, returnSecureToken
    }
}

/// The answer to `accounts:update`.
public struct UpdateAccountResponse: Sendable, Codable, Equatable {
    /// Google's response kind, e.g. `identitytoolkit#SignupNewUserResponse`.
    public var kind: String?
    /// The user's ID (`localId`).
    public var localID: String?
    /// The email address.
    public var email: String?
    /// The display name.
    public var displayName: String?
    /// The photo URL (`photoUrl`).
    public var photoURL: String?
    /// ``UserRecord/redactedPasswordHash`` when the account has a password.
    public var passwordHash: String?
    /// The linked sign-in providers.
    public var providerUserInfo: [ProviderUserInfo]?
    /// Whether the email is verified.
    public var emailVerified: Bool?
    /// The other address of an applied email change or recovery code (the new one of a
    /// VERIFY_AND_CHANGE_EMAIL, the restored one of a RECOVER_EMAIL).
    public var newEmail: String?
    /// The ID token (a JWT).
    public var idToken: String?
    /// The refresh token.
    public var refreshToken: String?
    /// The ID token's lifetime in seconds, as a decimal string.
    public var expiresIn: String?
    /// Makes the value from its fields.
    public init(
        kind: String? = nil,
        localID: String? = nil,
        email: String? = nil,
        displayName: String? = nil,
        emailVerified: Bool? = nil,
        idToken: String? = nil,
        refreshToken: String? = nil,
        expiresIn: String? = nil,
        photoURL: String? = nil,
        passwordHash: String? = nil,
        providerUserInfo: [ProviderUserInfo]? = nil,
        newEmail: String? = nil
    ) {
        self.kind = kind
        self.localID = localID
        self.email = email
        self.displayName = displayName
        self.photoURL = photoURL
        self.passwordHash = passwordHash
        self.providerUserInfo = providerUserInfo
        self.emailVerified = emailVerified
        self.newEmail = newEmail
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
    /// The wire field names, in the order the server writes them.
    public enum CodingKeys: String, CodingKey, Sendable {
        case kind
        case localID = "localId"
        case email, displayName
        case photoURL = "photoUrl"
        case passwordHash, providerUserInfo, emailVerified, newEmail, idToken, refreshToken, expiresIn
    }
}

/// `accounts:lookup` body: a client's own (`idToken`) or an admin's (`localId`, `email`).
public struct LookupRequest: Sendable, Codable, Equatable {
    /// The ID token (a JWT).
    public var idToken: String?
    /// The user's ID (`localId`).
    public var localID: [String]?
    /// The email address.
    public var email: [String]?
    /// Makes the value from its fields.
    public init(idToken: String? = nil, localID: [String]? = nil, email: [String]? = nil) {
        self.idToken = idToken
        self.localID = localID
        self.email = email
    }
    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable {
        case idToken
        case localID = "localId"
        case email
    }
}

/// One account as lookup, batchGet and query answer it.
public struct UserRecord: Sendable, Codable, Equatable {
    /// `passwordHash` as Firebase shows it to callers who may not see hashes: base64 of
    /// `REDACTED`. Only an admin's account download carries the real hash and salt.
    public static let redactedPasswordHash = "UkVEQUNURUQ="

    /// The user's ID (`localId`).
    public var localID: String
    /// The email address.
    public var email: String?
    /// Whether the email is verified.
    public var emailVerified: Bool?
    /// The display name.
    public var displayName: String?
    /// The photo URL (`photoUrl`).
    public var photoURL: String?
    /// The phone number in E.164 form.
    public var phoneNumber: String?
    /// ``redactedPasswordHash``, or in an admin's download the hash itself (base64).
    public var passwordHash: String?
    /// The hash's salt (base64), in an admin's download only.
    public var salt: String?
    /// When the password last changed, in milliseconds since the epoch.
    public var passwordUpdatedAt: Double?
    /// The linked sign-in providers.
    public var providerUserInfo: [ProviderUserInfo]?
    /// Seconds since the epoch before which refresh tokens are revoked, as a decimal string.
    public var validSince: String?
    /// Whether the account is disabled.
    public var disabled: Bool?
    /// Last sign-in in milliseconds since the epoch, as a decimal string.
    public var lastLoginAt: String?
    /// Milliseconds since the epoch, as a decimal string.
    public var createdAt: String?
    /// The last token refresh, an RFC 3339 timestamp.
    public var lastRefreshAt: String?
    /// The custom claims, a JSON object as a string.
    public var customAttributes: String?
    /// Set (true) on an account that has signed in with an email link.
    public var emailLinkSignin: Bool?
    /// Makes the value from its fields.
    public init(
        localID: String,
        email: String? = nil,
        emailVerified: Bool? = nil,
        displayName: String? = nil,
        photoURL: String? = nil,
        disabled: Bool? = nil,
        createdAt: String? = nil,
        lastLoginAt: String? = nil,
        validSince: String? = nil,
        passwordUpdatedAt: Double? = nil,
        customAttributes: String? = nil,
        phoneNumber: String? = nil,
        passwordHash: String? = nil,
        salt: String? = nil,
        providerUserInfo: [ProviderUserInfo]? = nil,
        lastRefreshAt: String? = nil,
        emailLinkSignin: Bool? = nil
    ) {
        self.localID = localID
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoURL = photoURL
        self.phoneNumber = phoneNumber
        self.passwordHash = passwordHash
        self.salt = salt
        self.passwordUpdatedAt = passwordUpdatedAt
        self.providerUserInfo = providerUserInfo
        self.validSince = validSince
        self.disabled = disabled
        self.lastLoginAt = lastLoginAt
        self.createdAt = createdAt
        self.lastRefreshAt = lastRefreshAt
        self.customAttributes = customAttributes
        self.emailLinkSignin = emailLinkSignin
    }
    /// The wire field names, in the order the server writes them.
    public enum CodingKeys: String, CodingKey, Sendable {
        case localID = "localId"
        case email, emailVerified, displayName
        case photoURL = "photoUrl"
        case phoneNumber, passwordHash, salt, passwordUpdatedAt, providerUserInfo, validSince, disabled
        case lastLoginAt, createdAt, lastRefreshAt, customAttributes, emailLinkSignin
    }
}

/// One linked sign-in provider of an account: `password` (keyed by the email) or `phone`
/// (keyed by the number).
public struct ProviderUserInfo: Sendable, Codable, Equatable {
    /// `password` or `phone`.
    public var providerID: String
    /// The provider's ID of the user (the email, for `password`).
    public var federatedID: String?
    /// The email address.
    public var email: String?
    /// The phone number in E.164 form.
    public var phoneNumber: String?
    /// The provider's raw ID of the user (the email or the number).
    public var rawID: String?
    /// The display name.
    public var displayName: String?
    /// The photo URL (`photoUrl`).
    public var photoURL: String?
    /// Makes the value from its fields.
    public init(
        providerID: String,
        federatedID: String? = nil,
        email: String? = nil,
        phoneNumber: String? = nil,
        rawID: String? = nil,
        displayName: String? = nil,
        photoURL: String? = nil
    ) {
        self.providerID = providerID
        self.federatedID = federatedID
        self.email = email
        self.phoneNumber = phoneNumber
        self.rawID = rawID
        self.displayName = displayName
        self.photoURL = photoURL
    }
    /// The wire field names, in the order the server writes them.
    public enum CodingKeys: String, CodingKey, Sendable {
        case providerID = "providerId"
        case federatedID = "federatedId"
        case email, phoneNumber
        case rawID = "rawId"
        case displayName
        case photoURL = "photoUrl"
    }
}

/// The answer to `accounts:lookup`; `users` is absent when nothing matched.
public struct LookupResponse: Sendable, Codable, Equatable {
    /// Google's response kind, e.g. `identitytoolkit#SignupNewUserResponse`.
    public var kind: String?
    /// The accounts found; absent when none.
    public var users: [UserRecord]?
    /// Makes the value from its fields.
    public init(kind: String? = nil, users: [UserRecord]?) {
        self.kind = kind
        self.users = users
    }
}

/// `accounts:delete` body: a client's own (`idToken`) or an admin's (`localId`).
public struct DeleteAccountRequest: Sendable, Codable, Equatable {
    /// The ID token (a JWT).
    public var idToken: String?
    /// The user's ID (`localId`).
    public var localID: String?
    /// Makes the value from its fields.
    public init(idToken: String? = nil, localID: String? = nil) {
        self.idToken = idToken
        self.localID = localID
    }
    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable {
        case idToken
        case localID = "localId"
    }
}

/// The answer to `accounts:delete`.
public struct DeleteAccountResponse: Sendable, Codable, Equatable {
    /// Google's response kind, e.g. `identitytoolkit#SignupNewUserResponse`.
    public var kind: String?
    /// Makes the value from its fields.
    public init(kind: String? = nil) { self.kind = kind }
}

/// Admin `accounts:batchGet` (a GET with query `maxResults`, `nextPageToken`) answer.
public struct BatchGetAccountsResponse: Sendable, Codable, Equatable {
    /// Google's response kind, e.g. `identitytoolkit#SignupNewUserResponse`.
    public var kind: String?
    /// The accounts found; absent when none.
    public var users: [UserRecord]?
    /// The token of the next page; absent on the last.
    public var nextPageToken: String?
    /// Makes the value from its fields.
    public init(kind: String? = nil, users: [UserRecord]?, nextPageToken: String?) {
        self.kind = kind
        self.users = users
        self.nextPageToken = nextPageToken
    }
}

/// Admin `accounts:query` body.
public struct QueryAccountsRequest: Sendable, Codable, Equatable {
    /// The page size, as a decimal string.
    public var limit: String?
    /// The number of accounts to skip, as a decimal string.
    public var offset: String?
    /// Whether to answer the accounts, not only their count.
    public var returnUserInfo: Bool?
    /// Makes the value from its fields.
    public init(limit: String? = nil, offset: String? = nil, returnUserInfo: Bool? = true) {
        self.limit = limit
        self.offset = offset
        self.returnUserInfo = returnUserInfo
    }
}

/// Admin `accounts:query` answer.
public struct QueryAccountsResponse: Sendable, Codable, Equatable {
    /// The number of matching accounts, as a decimal string.
    public var recordsCount: String?
    /// The accounts of this page.
    public var userInfo: [UserRecord]?
    /// Makes the value from its fields.
    public init(recordsCount: String?, userInfo: [UserRecord]?) {
        self.recordsCount = recordsCount
        self.userInfo = userInfo
    }
}

/// Admin create (`POST /v1/projects/{p}/accounts`) body.
public struct CreateAccountRequest: Sendable, Codable, Equatable {
    /// The user's ID (`localId`).
    public var localID: String?
    /// The email address.
    public var email: String?
    /// The password, in the clear over TLS.
    public var password: String?
    /// The display name.
    public var displayName: String?
    /// Whether the email is verified.
    public var emailVerified: Bool?
    /// Whether the account is disabled.
    public var disabled: Bool?
    /// Makes the value from its fields.
    public init(
        localID: String? = nil,
        email: String? = nil,
        password: String? = nil,
        displayName: String? = nil,
        emailVerified: Bool? = nil,
        disabled: Bool? = nil
    ) {
        self.localID = localID
        self.email = email
        self.password = password
        self.displayName = displayName
        self.emailVerified = emailVerified
        self.disabled = disabled
    }
    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable {
        case localID = "localId"
        case email, password, displayName, emailVerified, disabled
    }
}

/// Secure Token refresh (`POST /v1/token`, form-encoded `grant_type=refresh_token&refresh_token=…`).
public struct RefreshTokenRequest: Sendable, Codable, Equatable {
    /// Always `refresh_token`.
    public var grantType: String
    /// The refresh token.
    public var refreshToken: String
    /// Makes the value from its fields.
    public init(refreshToken: String) {
        self.grantType = "refresh_token"
        self.refreshToken = refreshToken
    }
    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable {
        case grantType = "grant_type"
        case refreshToken = "refresh_token"
    }

    /// The form-encoded body the SDKs send.
    public var formBody: String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let token = refreshToken.addingPercentEncoding(withAllowedCharacters: allowed) ?? refreshToken
        return "grant_type=\(grantType)&refresh_token=\(token)"
    }
}

/// The Secure Token answer (snake_case).
public struct RefreshTokenResponse: Sendable, Codable, Equatable {
    /// The ID token again (`access_token`).
    public var accessToken: String?
    /// The ID token's lifetime in seconds, as a decimal string.
    public var expiresIn: String
    /// Always `Bearer`.
    public var tokenType: String?
    /// The refresh token.
    public var refreshToken: String
    /// The ID token (a JWT).
    public var idToken: String
    /// The user's ID (`user_id`).
    public var userID: String
    /// The project number (`project_id`).
    public var projectID: String?
    /// Makes the value from its fields.
    public init(
        accessToken: String? = nil,
        expiresIn: String,
        tokenType: String? = "Bearer",
        refreshToken: String,
        idToken: String,
        userID: String,
        projectID: String? = nil
    ) {
        self.accessToken = accessToken
        self.expiresIn = expiresIn
        self.tokenType = tokenType
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.userID = userID
        self.projectID = projectID
    }
    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable {
        case accessToken = "access_token"
        case expiresIn = "expires_in"
        case tokenType = "token_type"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
        case userID = "user_id"
        case projectID = "project_id"
    }
}
