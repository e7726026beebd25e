/// Google's error envelope: `{"error":{"code":400,"message":"CODE[ : detail]","errors":[…],"status":…}}`.
public struct GoogleErrorEnvelope: Sendable, Codable, Equatable {
    /// The error body.
    public struct Body: Sendable, Codable, Equatable {
        /// One entry of `errors`.
        public struct Item: Sendable, Codable, Equatable {
            public var message: String?
            public var domain: String?
            public var reason: String?
            public init(message: String?, domain: String? = "global", reason: String? = "invalid") {
                self.message = message
                self.domain = domain
                self.reason = reason
            }
        }
        /// The HTTP status code.
        public var code: Int
        /// `CODE` or `CODE : detail`.
        public var message: String
        /// Identity Toolkit's list of errors.
        public var errors: [Item]?
        /// The canonical status (`NOT_FOUND`, `INVALID_ARGUMENT`, …) Installations answers.
        public var status: String?

        public init(code: Int, message: String, errors: [Item]? = nil, status: String? = nil) {
            self.code = code
            self.message = message
            self.errors = errors
            self.status = status
        }

        /// The code part of `message` (before ` : `).
        public var errorCode: String { parts.code }

        /// The detail after ` : `, if any.
        public var detail: String? { parts.detail }

        private var parts: (code: String, detail: String?) {
            let characters = Array(message)
            for index in characters.indices.dropLast(2)
            where characters[index] == " " && characters[index + 1] == ":" && characters[index + 2] == " " {
                return (String(characters[..<index]), String(characters[(index + 3)...]))
            }
            return (message, nil)
        }

        /// The typed code, if `message` carries one Hearth declares.
        public var wireCode: WireErrorCode? { WireErrorCode(rawValue: errorCode) }
    }
    public var error: Body

    public init(error: Body) { self.error = error }
}

/// The Identity Toolkit error codes (the `message` of an error envelope) clients act on.
public enum WireErrorCode: String, Sendable, Codable, CaseIterable {
    case emailNotFound = "EMAIL_NOT_FOUND"
    case emailExists = "EMAIL_EXISTS"
    case invalidPassword = "INVALID_PASSWORD"
    case invalidLoginCredentials = "INVALID_LOGIN_CREDENTIALS"
    case invalidEmail = "INVALID_EMAIL"
    case missingEmail = "MISSING_EMAIL"
    case missingPassword = "MISSING_PASSWORD"
    case weakPassword = "WEAK_PASSWORD"
    case userNotFound = "USER_NOT_FOUND"
    case userDisabled = "USER_DISABLED"
    case invalidOOBCode = "INVALID_OOB_CODE"
    case expiredOOBCode = "EXPIRED_OOB_CODE"
    case missingOOBCode = "MISSING_OOB_CODE"
    case unauthorizedDomain = "UNAUTHORIZED_DOMAIN"
    case invalidContinueURI = "INVALID_CONTINUE_URI"
    case missingContinueURI = "MISSING_CONTINUE_URI"
    case missingAndroidPackageName = "MISSING_ANDROID_PACKAGE_NAME"
    case missingIOSBundleID = "MISSING_IOS_BUNDLE_ID"
    case invalidHostingLinkDomain = "INVALID_HOSTING_LINK_DOMAIN"
    case invalidDynamicLinkDomain = "INVALID_DYNAMIC_LINK_DOMAIN"
    case tooManyAttemptsTryLater = "TOO_MANY_ATTEMPTS_TRY_LATER"
    case invalidIDToken = "INVALID_ID_TOKEN"
    case tokenExpired = "TOKEN_EXPIRED"
    case credentialTooOldLoginAgain = "CREDENTIAL_TOO_OLD_LOGIN_AGAIN"
    case invalidRefreshToken = "INVALID_REFRESH_TOKEN"
    case invalidGrantType = "INVALID_GRANT_TYPE"
    case missingRefreshToken = "MISSING_REFRESH_TOKEN"
    case invalidAPIKey = "INVALID_API_KEY"
    case apiKeyNotValid = "API_KEY_NOT_VALID"
    case missingRequestType = "MISSING_REQ_TYPE"
    case operationNotAllowed = "OPERATION_NOT_ALLOWED"
    case adminOnlyOperation = "ADMIN_ONLY_OPERATION"
    case insufficientPermission = "INSUFFICIENT_PERMISSION"
    case projectNotFound = "PROJECT_NOT_FOUND"
    case invalidIdentifier = "INVALID_IDENTIFIER"
    case missingLocalID = "MISSING_LOCAL_ID"
    case duplicateLocalID = "DUPLICATE_LOCAL_ID"
    case internalError = "INTERNAL_ERROR"
}

/// The canonical statuses Installations answers in `status`.
public enum WireErrorStatus: String, Sendable, Codable, CaseIterable {
    case invalidArgument = "INVALID_ARGUMENT"
    case unauthenticated = "UNAUTHENTICATED"
    case permissionDenied = "PERMISSION_DENIED"
    case notFound = "NOT_FOUND"
    case alreadyExists = "ALREADY_EXISTS"
    case failedPrecondition = "FAILED_PRECONDITION"
    case resourceExhausted = "RESOURCE_EXHAUSTED"
    case unavailable = "UNAVAILABLE"
    case internalError = "INTERNAL"
}
