/// A refusal from the accounts domain, carrying one of Firebase Auth's error codes and an
/// optional human detail. At the server edge it becomes the Identity Toolkit envelope
/// `{"error":{"code":400,"message":"CODE : detail","errors":[...]}}`, which every Firebase
/// client parses by the code before `" : "`.
public struct AuthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A Firebase Auth error code, as written on the wire.
    public struct Code: RawRepresentable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let apiKeyInvalid = Code(rawValue: "API_KEY_INVALID")
        public static let claimsTooLarge = Code(rawValue: "CLAIMS_TOO_LARGE")
        public static let duplicateLocalID = Code(rawValue: "DUPLICATE_LOCAL_ID")
        public static let emailExists = Code(rawValue: "EMAIL_EXISTS")
        public static let emailNotFound = Code(rawValue: "EMAIL_NOT_FOUND")
        public static let forbiddenClaim = Code(rawValue: "FORBIDDEN_CLAIM")
        public static let insufficientPermission = Code(rawValue: "INSUFFICIENT_PERMISSION")
        public static let invalidClaims = Code(rawValue: "INVALID_CLAIMS")
        public static let invalidEmail = Code(rawValue: "INVALID_EMAIL")
        public static let invalidGrantType = Code(rawValue: "INVALID_GRANT_TYPE")
        public static let invalidIDToken = Code(rawValue: "INVALID_ID_TOKEN")
        public static let invalidIdentifier = Code(rawValue: "INVALID_IDENTIFIER")
        public static let invalidLocalID = Code(rawValue: "INVALID_LOCAL_ID")
        public static let invalidLoginCredentials = Code(rawValue: "INVALID_LOGIN_CREDENTIALS")
        public static let invalidPageSelection = Code(rawValue: "INVALID_PAGE_SELECTION")
        public static let invalidPassword = Code(rawValue: "INVALID_PASSWORD")
        public static let invalidPhoneNumber = Code(rawValue: "INVALID_PHONE_NUMBER")
        public static let invalidRefreshToken = Code(rawValue: "INVALID_REFRESH_TOKEN")
        public static let invalidRequestType = Code(rawValue: "INVALID_REQ_TYPE")
        public static let missingEmail = Code(rawValue: "MISSING_EMAIL")
        public static let missingGrantType = Code(rawValue: "MISSING_GRANT_TYPE")
        public static let missingIDToken = Code(rawValue: "MISSING_ID_TOKEN")
        public static let missingNewEmail = Code(rawValue: "MISSING_NEW_EMAIL")
        public static let missingOOBCode = Code(rawValue: "MISSING_OOB_CODE")
        public static let missingRequestType = Code(rawValue: "MISSING_REQ_TYPE")
        public static let invalidOOBCode = Code(rawValue: "INVALID_OOB_CODE")
        public static let expiredOOBCode = Code(rawValue: "EXPIRED_OOB_CODE")
        public static let missingIdentifier = Code(rawValue: "MISSING_IDENTIFIER")
        public static let missingLocalID = Code(rawValue: "MISSING_LOCAL_ID")
        public static let missingPassword = Code(rawValue: "MISSING_PASSWORD")
        public static let missingRefreshToken = Code(rawValue: "MISSING_REFRESH_TOKEN")
        public static let operationNotAllowed = Code(rawValue: "OPERATION_NOT_ALLOWED")
        public static let passwordDoesNotMeetRequirements = Code(rawValue: "PASSWORD_DOES_NOT_MEET_REQUIREMENTS")
        public static let phoneNumberExists = Code(rawValue: "PHONE_NUMBER_EXISTS")
        public static let tokenExpired = Code(rawValue: "TOKEN_EXPIRED")
        public static let tooManyAttempts = Code(rawValue: "TOO_MANY_ATTEMPTS_TRY_LATER")
        public static let userDisabled = Code(rawValue: "USER_DISABLED")
        public static let userNotFound = Code(rawValue: "USER_NOT_FOUND")
        public static let weakPassword = Code(rawValue: "WEAK_PASSWORD")
    }

    public var code: Code
    public var detail: String?
    /// The HTTP status; Identity Toolkit answers business errors with 400.
    public var httpStatus: Int

    public init(_ code: Code, _ detail: String? = nil, httpStatus: Int = 400) {
        self.code = code
        self.detail = detail
        self.httpStatus = httpStatus
    }

    /// The envelope's `message`: `CODE` or `CODE : detail`.
    public var message: String {
        guard let detail, !detail.isEmpty else { return code.rawValue }
        return "\(code.rawValue) : \(detail)"
    }

    public var description: String { "\(httpStatus) \(message)" }

    // The errors with the details Firebase gives them.

    public static let weakPassword = AuthError(.weakPassword, "Password should be at least 6 characters")
    public static let tooManyAttempts = AuthError(
        .tooManyAttempts,
        "Too many unsuccessful attempts; the account is temporarily locked. Try again later or reset the password."
    )
    public static let userDisabled = AuthError(.userDisabled, "The user account has been disabled by an administrator.")
    public static let userNotFound = AuthError(
        .userNotFound,
        "There is no user record corresponding to this identifier."
    )
    public static let invalidIDToken = AuthError(.invalidIDToken, "The user's credential is no longer valid.")
    public static let tokenExpired = AuthError(
        .tokenExpired,
        "The user's credential is no longer valid. The user must sign in again."
    )
    public static let invalidRefreshToken = AuthError(.invalidRefreshToken)
    public static let invalidEmail = AuthError(.invalidEmail)
    public static let emailExists = AuthError(.emailExists)
    public static let invalidOOBCode = AuthError(
        .invalidOOBCode,
        "The action code is invalid. This can happen if the code is malformed, expired, or has already been used."
    )
    public static let expiredOOBCode = AuthError(.expiredOOBCode, "The action code has expired.")
}
