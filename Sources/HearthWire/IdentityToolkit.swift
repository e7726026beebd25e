import Foundation

/// Paths of the Identity Toolkit v1 and Secure Token calls.
public enum IdentityToolkitPath {
    public static let signUp = "/v1/accounts:signUp"
    public static let signInWithPassword = "/v1/accounts:signInWithPassword"
    public static let sendOobCode = "/v1/accounts:sendOobCode"
    public static let resetPassword = "/v1/accounts:resetPassword"
    public static let update = "/v1/accounts:update"
    public static let lookup = "/v1/accounts:lookup"
    public static let delete = "/v1/accounts:delete"
    public static let signInWithEmailLink = "/v1/accounts:signInWithEmailLink"
    public static let token = "/v1/token"
    /// Admin calls under a project.
    public static func admin(project: String, _ method: String) -> String { "/v1/projects/\(project)/\(method)" }
}

/// `accounts:signUp` body.
public struct SignUpRequest: Sendable, Codable, Equatable {
    public var email: String?
    public var password: String?
    public var displayName: String?
    public var returnSecureToken: Bool?
    public init(email: String?, password: String?, displayName: String? = nil, returnSecureToken: Bool? = true) {
        self.email = email
        self.password = password
        self.displayName = displayName
        self.returnSecureToken = returnSecureToken
    }
}

/// The answer to sign-up and the sign-in calls: the user and a session.
public struct SignInResponse: Sendable, Codable, Equatable {
    public var kind: String?
    public var localID: String
    public var email: String?
    public var displayName: String?
    public var idToken: String?
    public var refreshToken: String?
    /// Seconds as a decimal string (`"3600"`).
    public var expiresIn: String?
    public var registered: Bool?
    public var isNewUser: Bool?
    public init(
        kind: String? = nil,
        localID: String,
        email: String? = nil,
        displayName: String? = nil,
        idToken: String? = nil,
        refreshToken: String? = nil,
        expiresIn: String? = nil,
        registered: Bool? = nil,
        isNewUser: Bool? = nil
    ) {
        self.kind = kind
        self.localID = localID
        self.email = email
        self.displayName = displayName
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.registered = registered
        self.isNewUser = isNewUser
    }
    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable {
        case kind
        case localID = "localId"
        case email, displayName, idToken, refreshToken, expiresIn, registered, isNewUser
    }
}

/// `accounts:signInWithPassword` body.
public struct SignInWithPasswordRequest: Sendable, Codable, Equatable {
    public var email: String
    public var password: String
    public var returnSecureToken: Bool?
    public init(email: String, password: String, returnSecureToken: Bool? = true) {
        self.email = email
        self.password = password
        self.returnSecureToken = returnSecureToken
    }
}

/// `accounts:signInWithEmailLink` body: the email and the link's `oobCode`.
public struct SignInWithEmailLinkRequest: Sendable, Codable, Equatable {
    public var email: String
    public var oobCode: String
    /// Links the email to a signed-in user instead of signing in.
    public var idToken: String?
    public init(email: String, oobCode: String, idToken: String? = nil) {
        self.email = email
        self.oobCode = oobCode
        self.idToken = idToken
    }
}

/// `accounts:sendOobCode` body (client or, with `returnOobLink`, admin).
public struct SendOobCodeRequest: Sendable, Codable, Equatable {
    /// The operation's `requestType` string (``ActionCodeOperation/requestType``).
    public var requestType: String
    public var email: String?
    /// The new address of a VERIFY_AND_CHANGE_EMAIL.
    public var newEmail: String?
    /// The signed-in user's ID token (VERIFY_EMAIL, VERIFY_AND_CHANGE_EMAIL from a client).
    public var idToken: String?
    /// Admin only: answer the link instead of mailing it.
    public var returnOobLink: Bool?
    /// The action code settings, flattened into the body.
    public var settings: ActionCodeSettingsFields

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

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requestType = try container.decode(String.self, forKey: .requestType)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        newEmail = try container.decodeIfPresent(String.self, forKey: .newEmail)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        returnOobLink = try container.decodeIfPresent(Bool.self, forKey: .returnOobLink)
        settings = try ActionCodeSettingsFields(from: decoder)
    }

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
    public var kind: String?
    public var email: String?
    public var oobLink: String?
    public var oobCode: String?
    public init(kind: String? = nil, email: String? = nil, oobLink: String? = nil, oobCode: String? = nil) {
        self.kind = kind
        self.email = email
        self.oobLink = oobLink
        self.oobCode = oobCode
    }
}

/// `accounts:resetPassword` body: only `oobCode` inspects the code, with `newPassword` uses it.
public struct ResetPasswordRequest: Sendable, Codable, Equatable {
    public var oobCode: String
    public var newPassword: String?
    public init(oobCode: String, newPassword: String? = nil) {
        self.oobCode = oobCode
        self.newPassword = newPassword
    }
}

/// The answer to `accounts:resetPassword`: the code's operation and addresses.
public struct ResetPasswordResponse: Sendable, Codable, Equatable {
    public var kind: String?
    public var email: String?
    /// The address a VERIFY_AND_CHANGE_EMAIL code changes to, or a RECOVER_EMAIL restores.
    public var newEmail: String?
    /// The `requestType` string of the code.
    public var requestType: String?
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
    public var idToken: String?
    public var localID: String?
    public var oobCode: String?
    public var email: String?
    public var password: String?
    public var displayName: String?
    public var emailVerified: Bool?
    public var disableUser: Bool?
    /// Attributes to clear (`DISPLAY_NAME`, `PHOTO_URL`).
    public var deleteAttribute: [String]?
    /// Admin: revokes refresh tokens issued before this time (seconds).
    public var validSince: String?
    public var returnSecureToken: Bool?
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
    public var kind: String?
    public var localID: String?
    public var email: String?
    public var displayName: String?
    public var emailVerified: Bool?
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?
    public init(
        kind: String? = nil,
        localID: String? = nil,
        email: String? = nil,
        displayName: String? = nil,
        emailVerified: Bool? = nil,
        idToken: String? = nil,
        refreshToken: String? = nil,
        expiresIn: String? = nil
    ) {
        self.kind = kind
        self.localID = localID
        self.email = email
        self.displayName = displayName
        self.emailVerified = emailVerified
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable {
        case kind
        case localID = "localId"
        case email, displayName, emailVerified, idToken, refreshToken, expiresIn
    }
}

/// `accounts:lookup` body: a client's own (`idToken`) or an admin's (`localId`, `email`).
public struct LookupRequest: Sendable, Codable, Equatable {
    public var idToken: String?
    public var localID: [String]?
    public var email: [String]?
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
    public var localID: String
    public var email: String?
    public var emailVerified: Bool?
    public var displayName: String?
    public var photoURL: String?
    public var disabled: Bool?
    /// Milliseconds since the epoch, as a decimal string.
    public var createdAt: String?
    public var lastLoginAt: String?
    /// Seconds since the epoch before which refresh tokens are revoked, as a decimal string.
    public var validSince: String?
    public var passwordUpdatedAt: Double?
    public var customAttributes: String?
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
        customAttributes: String? = nil
    ) {
        self.localID = localID
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoURL = photoURL
        self.disabled = disabled
        self.createdAt = createdAt
        self.lastLoginAt = lastLoginAt
        self.validSince = validSince
        self.passwordUpdatedAt = passwordUpdatedAt
        self.customAttributes = customAttributes
    }
    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable {
        case localID = "localId"
        case email, emailVerified, displayName
        case photoURL = "photoUrl"
        case disabled, createdAt
        case lastLoginAt, validSince, passwordUpdatedAt, customAttributes
    }
}

/// The answer to `accounts:lookup`; `users` is absent when nothing matched.
public struct LookupResponse: Sendable, Codable, Equatable {
    public var kind: String?
    public var users: [UserRecord]?
    public init(kind: String? = nil, users: [UserRecord]?) {
        self.kind = kind
        self.users = users
    }
}

/// `accounts:delete` body: a client's own (`idToken`) or an admin's (`localId`).
public struct DeleteAccountRequest: Sendable, Codable, Equatable {
    public var idToken: String?
    public var localID: String?
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
    public var kind: String?
    public init(kind: String? = nil) { self.kind = kind }
}

/// Admin `accounts:batchGet` (a GET with query `maxResults`, `nextPageToken`) answer.
public struct BatchGetAccountsResponse: Sendable, Codable, Equatable {
    public var kind: String?
    public var users: [UserRecord]?
    /// The token of the next page; absent on the last.
    public var nextPageToken: String?
    public init(kind: String? = nil, users: [UserRecord]?, nextPageToken: String?) {
        self.kind = kind
        self.users = users
        self.nextPageToken = nextPageToken
    }
}

/// Admin `accounts:query` body.
public struct QueryAccountsRequest: Sendable, Codable, Equatable {
    public var limit: String?
    public var offset: String?
    public var returnUserInfo: Bool?
    public init(limit: String? = nil, offset: String? = nil, returnUserInfo: Bool? = true) {
        self.limit = limit
        self.offset = offset
        self.returnUserInfo = returnUserInfo
    }
}

/// Admin `accounts:query` answer.
public struct QueryAccountsResponse: Sendable, Codable, Equatable {
    public var recordsCount: String?
    public var userInfo: [UserRecord]?
    public init(recordsCount: String?, userInfo: [UserRecord]?) {
        self.recordsCount = recordsCount
        self.userInfo = userInfo
    }
}

/// Admin create (`POST /v1/projects/{p}/accounts`) body.
public struct CreateAccountRequest: Sendable, Codable, Equatable {
    public var localID: String?
    public var email: String?
    public var password: String?
    public var displayName: String?
    public var emailVerified: Bool?
    public var disabled: Bool?
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
    public var refreshToken: String
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
    public var accessToken: String?
    public var expiresIn: String
    public var tokenType: String?
    public var refreshToken: String
    public var idToken: String
    public var userID: String
    public var projectID: String?
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
