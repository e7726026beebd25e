/// Body of the admin's online installation-token check,
/// `POST /v1/projects/{p}/installations:verifyToken`.
public struct VerifyInstallationTokenRequest: Sendable, Codable, Equatable {
    /// The installation auth token to check.
    public var token: String
    /// Makes the value from its fields.
    public init(token: String) { self.token = token }
}

/// The answer to `installations:verifyToken`: what the token says, given only while the
/// installation it names still exists.
public struct VerifyInstallationTokenResponse: Sendable, Codable, Equatable {
    /// The installation ID.
    public var fid: String
    /// The app the installation belongs to (`appId`).
    public var appID: String
    /// The project number, as a decimal string.
    public var projectNumber: String
    /// The expiry as an RFC 3339 timestamp.
    public var expireTime: String?
    /// The expiry in seconds since the epoch.
    public var exp: Int64
    /// When the token was issued, in seconds since the epoch.
    public var iat: Int64?
    /// Makes the value from its fields.
    public init(fid: String, appID: String, projectNumber: String, expireTime: String?, exp: Int64, iat: Int64?) {
        self.fid = fid
        self.appID = appID
        self.projectNumber = projectNumber
        self.expireTime = expireTime
        self.exp = exp
        self.iat = iat
    }
    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable {
        case fid
        case appID = "appId"
        case projectNumber, expireTime, exp, iat
    }
}

/// The answer to `GET /v1/projects` (legacy `getProjectConfig`).
public struct ProjectConfigResponse: Sendable, Codable, Equatable {
    /// Google's response kind, `identitytoolkit#GetProjectConfigResponse`.
    public var kind: String?
    /// The project **number** (Google answers the number in this field).
    public var projectID: String
    /// The domains a continue URL may name.
    public var authorizedDomains: [String]?
    /// Makes the value from its fields.
    public init(projectID: String, authorizedDomains: [String]?, kind: String? = nil) {
        self.kind = kind
        self.projectID = projectID
        self.authorizedDomains = authorizedDomains
    }
    /// The wire field names, in the order the server writes them.
    public enum CodingKeys: String, CodingKey, Sendable {
        case kind
        case projectID = "projectId"
        case authorizedDomains
    }
}

/// One usable code of the development outbox, as the Auth emulator lists them.
public struct DevelopmentOobCode: Sendable, Codable, Equatable {
    /// The address the action is for (the old address of an email change).
    public var email: String
    /// The new address of a VERIFY_AND_CHANGE_EMAIL.
    public var newEmail: String?
    /// The out-of-band code.
    public var oobCode: String?
    /// The action link as mailed (or as generated for an admin).
    public var oobLink: String?
    /// The operation's `requestType` (``ActionCodeOperation/requestType``).
    public var requestType: String
    /// Makes the value from its fields.
    public init(email: String, newEmail: String? = nil, oobCode: String?, oobLink: String?, requestType: String) {
        self.email = email
        self.newEmail = newEmail
        self.oobCode = oobCode
        self.oobLink = oobLink
        self.requestType = requestType
    }

    /// The typed operation of `requestType`.
    public var operation: ActionCodeOperation { ActionCodeOperation(requestType: requestType) }
}

/// The answer to `GET /emulator/v1/projects/{p}/oobCodes` (development seed only): the codes
/// that would work now, oldest first.
public struct DevelopmentOobCodesResponse: Sendable, Codable, Equatable {
    /// The usable codes.
    public var oobCodes: [DevelopmentOobCode]
    /// Makes the value from its fields.
    public init(oobCodes: [DevelopmentOobCode]) { self.oobCodes = oobCodes }
}

/// Paths of the admin calls that are neither Identity Toolkit methods nor installation calls.
public enum AdminPath {
    /// Every published key of a project (ID-token and installation keys) as a JWKS.
    public static func projectJWKS(project: String) -> String { "/v1/projects/\(project)/jwks" }
    /// The online installation-token check.
    public static func verifyInstallationToken(project: String) -> String {
        "/v1/projects/\(project)/installations:verifyToken"
    }
    /// The project's configuration (`getProjectConfig`).
    public static let projectConfig = "/v1/projects"
    /// The development outbox's usable codes.
    public static func developmentOobCodes(project: String) -> String { "/emulator/v1/projects/\(project)/oobCodes" }
}
