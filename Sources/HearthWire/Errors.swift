/// Google's error envelope: `{"error":{"code":400,"message":"CODE[ : detail]","errors":[…],"status":…}}`.
public struct GoogleErrorEnvelope: Sendable, Codable, Equatable {
    /// The error body.
    public struct Body: Sendable, Codable, Equatable {
        /// One entry of `errors`.
        public struct Item: Sendable, Codable, Equatable {
            /// The error's message.
            public var message: String?
            /// The error's domain (`global`).
            public var domain: String?
            /// The error's reason (`invalid`).
            public var reason: String?
            /// Makes the value from its fields.
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

        /// Makes the value from its fields.
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
    /// The error body.
    public var error: Body

    /// Makes the value from its fields.
    public init(error: Body) { self.error = error }
}

/// The Identity Toolkit error codes Hearth answers (the code part of an error envelope's
/// `message`), the same set the server declares.
public enum WireErrorCode: String, Sendable, Codable, CaseIterable {
    case apiKeyInvalid = "API_KEY_INVALID"
    case claimsTooLarge = "CLAIMS_TOO_LARGE"
    case duplicateLocalID = "DUPLICATE_LOCAL_ID"
    case emailExists = "EMAIL_EXISTS"
    case emailNotFound = "EMAIL_NOT_FOUND"
    case forbiddenClaim = "FORBIDDEN_CLAIM"
    case insufficientPermission = "INSUFFICIENT_PERMISSION"
    case invalidClaims = "INVALID_CLAIMS"
    case invalidEmail = "INVALID_EMAIL"
    case invalidGrantType = "INVALID_GRANT_TYPE"
    case invalidIDToken = "INVALID_ID_TOKEN"
    case invalidIdentifier = "INVALID_IDENTIFIER"
    case invalidLocalID = "INVALID_LOCAL_ID"
    case invalidLoginCredentials = "INVALID_LOGIN_CREDENTIALS"
    case invalidPageSelection = "INVALID_PAGE_SELECTION"
    case invalidPassword = "INVALID_PASSWORD"
    case invalidPhoneNumber = "INVALID_PHONE_NUMBER"
    case invalidRefreshToken = "INVALID_REFRESH_TOKEN"
    case invalidRequestType = "INVALID_REQ_TYPE"
    case missingEmail = "MISSING_EMAIL"
    case missingGrantType = "MISSING_GRANT_TYPE"
    case missingIDToken = "MISSING_ID_TOKEN"
    case missingNewEmail = "MISSING_NEW_EMAIL"
    case missingOOBCode = "MISSING_OOB_CODE"
    case missingRequestType = "MISSING_REQ_TYPE"
    case invalidOOBCode = "INVALID_OOB_CODE"
    case expiredOOBCode = "EXPIRED_OOB_CODE"
    case missingIdentifier = "MISSING_IDENTIFIER"
    case missingLocalID = "MISSING_LOCAL_ID"
    case missingPassword = "MISSING_PASSWORD"
    case missingRefreshToken = "MISSING_REFRESH_TOKEN"
    case operationNotAllowed = "OPERATION_NOT_ALLOWED"
    case passwordDoesNotMeetRequirements = "PASSWORD_DOES_NOT_MEET_REQUIREMENTS"
    case phoneNumberExists = "PHONE_NUMBER_EXISTS"
    case tokenExpired = "TOKEN_EXPIRED"
    case tooManyAttempts = "TOO_MANY_ATTEMPTS_TRY_LATER"
    case userDisabled = "USER_DISABLED"
    case userNotFound = "USER_NOT_FOUND"
    case weakPassword = "WEAK_PASSWORD"
    case invalidAndroidPackageName = "INVALID_ANDROID_PACKAGE_NAME"
    case invalidContinueURI = "INVALID_CONTINUE_URI"
    case invalidDynamicLinkDomain = "INVALID_DYNAMIC_LINK_DOMAIN"
    case invalidHostingLinkDomain = "INVALID_HOSTING_LINK_DOMAIN"
    case invalidIOSBundleID = "INVALID_IOS_BUNDLE_ID"
    case missingAndroidPackageName = "MISSING_ANDROID_PACKAGE_NAME"
    case missingContinueURI = "MISSING_CONTINUE_URI"
    case missingIOSBundleID = "MISSING_IOS_BUNDLE_ID"
    case unauthorizedDomain = "UNAUTHORIZED_DOMAIN"
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
