/// A refusal from the accounts domain, carrying one of Firebase Auth's error codes. At the
/// server edge it becomes the Identity Toolkit envelope
/// `{"error":{"code":400,"message":"CODE : detail","errors":[...]}}`, which every Firebase
/// client parses by the code before `" : "`.
///
/// The message is worded as Firebase words it, from one table (``Code/wording``): a bare code
/// where Firebase answers a bare code, so SDKs show their own text (the JS SDK shows a
/// message's detail instead of its own), and Firebase's detail where it adds one. A detail
/// Hearth gives a code that Firebase answers bare goes to logs (``description``) only.
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

        // The action-code settings' refusals (`ActionCodeSettingsError`).
        public static let invalidAndroidPackageName = Code(rawValue: "INVALID_ANDROID_PACKAGE_NAME")
        public static let invalidContinueURI = Code(rawValue: "INVALID_CONTINUE_URI")
        public static let invalidDynamicLinkDomain = Code(rawValue: "INVALID_DYNAMIC_LINK_DOMAIN")
        public static let invalidHostingLinkDomain = Code(rawValue: "INVALID_HOSTING_LINK_DOMAIN")
        public static let invalidIOSBundleID = Code(rawValue: "INVALID_IOS_BUNDLE_ID")
        public static let missingAndroidPackageName = Code(rawValue: "MISSING_ANDROID_PACKAGE_NAME")
        public static let missingContinueURI = Code(rawValue: "MISSING_CONTINUE_URI")
        public static let missingIOSBundleID = Code(rawValue: "MISSING_IOS_BUNDLE_ID")
        public static let unauthorizedDomain = Code(rawValue: "UNAUTHORIZED_DOMAIN")

        /// How Firebase words a code's message.
        public enum Wording: Sendable, Equatable {
            /// `CODE` alone.
            case bare
            /// `CODE : detail`, always the same detail.
            case detail(String)
            /// `CODE : detail` with a detail that names the case (`FORBIDDEN_CLAIM : sub`),
            /// or `CODE` alone when there is none.
            case situational
        }

        /// Every code Hearth sends, worded as Firebase (production, or the Firebase Auth
        /// emulator, which mirrors it) words it. docs/email-actions.md lists it.
        public static let wordings: [Code: Wording] = [
            .apiKeyInvalid: .detail("API key not valid. Please pass a valid API key."),
            .claimsTooLarge: .bare,
            .duplicateLocalID: .bare,
            .emailExists: .bare,
            .emailNotFound: .bare,
            .expiredOOBCode: .bare,
            .forbiddenClaim: .situational,
            .insufficientPermission: .bare,
            .invalidAndroidPackageName: .bare,
            .invalidClaims: .bare,
            .invalidContinueURI: .situational,
            .invalidDynamicLinkDomain: .bare,
            .invalidEmail: .situational,
            .invalidGrantType: .bare,
            .invalidHostingLinkDomain: .bare,
            .invalidIDToken: .bare,
            .invalidIdentifier: .bare,
            .invalidIOSBundleID: .bare,
            .invalidLocalID: .bare,
            .invalidLoginCredentials: .bare,
            .invalidOOBCode: .bare,
            .invalidPageSelection: .bare,
            .invalidPassword: .bare,
            .invalidPhoneNumber: .detail("Invalid format."),
            .invalidRefreshToken: .bare,
            .invalidRequestType: .detail("Unsupported request parameters."),
            .missingAndroidPackageName: .bare,
            .missingContinueURI: .bare,
            .missingEmail: .bare,
            .missingGrantType: .bare,
            .missingIDToken: .bare,
            .missingIdentifier: .bare,
            .missingIOSBundleID: .bare,
            .missingLocalID: .bare,
            .missingNewEmail: .bare,
            .missingOOBCode: .bare,
            .missingPassword: .bare,
            .missingRefreshToken: .bare,
            .missingRequestType: .bare,
            .operationNotAllowed: .situational,
            .passwordDoesNotMeetRequirements: .situational,
            .phoneNumberExists: .bare,
            .tokenExpired: .bare,
            .tooManyAttempts: .situational,
            .unauthorizedDomain: .detail("Domain not allowlisted by project"),
            .userDisabled: .bare,
            .userNotFound: .bare,
            .weakPassword: .detail("Password should be at least 6 characters"),
        ]

        /// This code's wording (a code outside the table is sent bare).
        public var wording: Wording { Self.wordings[self] ?? .bare }
    }

    public var code: Code
    public var detail: String?
    /// The HTTP status; Identity Toolkit answers business errors with 400.
    public var httpStatus: Int
    /// When a throttled caller may try again, sent as `Retry-After`.
    public var retryAfterSeconds: Int64?

    public init(_ code: Code, _ detail: String? = nil, httpStatus: Int = 400, retryAfterSeconds: Int64? = nil) {
        self.code = code
        self.detail = detail
        self.httpStatus = httpStatus
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// The envelope's `message`, worded as Firebase words it: `CODE` or `CODE : detail`.
    public var message: String {
        switch code.wording {
        case .bare: return code.rawValue
        case .detail(let fixed): return "\(code.rawValue) : \(fixed)"
        case .situational:
            guard let detail, !detail.isEmpty else { return code.rawValue }
            return "\(code.rawValue) : \(detail)"
        }
    }

    /// The status, the message, and Hearth's own detail when the message leaves it out (for logs).
    public var description: String {
        guard let detail, !detail.isEmpty, !message.hasSuffix(detail) else { return "\(httpStatus) \(message)" }
        return "\(httpStatus) \(message) (\(detail))"
    }

    // Common errors.

    public static let weakPassword = AuthError(.weakPassword)
    /// A sign-in refused while the caller's failed attempts back off: Firebase's code and
    /// status (400; SDKs map the code to "too many requests") with `Retry-After`, saying whose
    /// failures (this address's, or this address's on this account) and when to try again.
    public static func signInBackoff(retryAfterSeconds: Int64, acrossAccounts: Bool) -> AuthError {
        let whose = acrossAccounts ? "from this address" : "on this account from this address"
        return AuthError(
            .tooManyAttempts,
            "Too many failed sign-in attempts \(whose). Try again in \(retryAfterSeconds) s.",
            retryAfterSeconds: retryAfterSeconds
        )
    }

    /// A sign-up refused by the per-address quota of new accounts.
    public static func signUpQuota(retryAfterSeconds: Int64) -> AuthError {
        AuthError(
            .tooManyAttempts,
            "Too many new accounts from this address. Try again in \(retryAfterSeconds) s.",
            retryAfterSeconds: retryAfterSeconds
        )
    }
    public static let userDisabled = AuthError(.userDisabled)
    public static let userNotFound = AuthError(.userNotFound)
    public static let invalidIDToken = AuthError(.invalidIDToken)
    public static let tokenExpired = AuthError(.tokenExpired)
    public static let invalidRefreshToken = AuthError(.invalidRefreshToken)
    public static let invalidEmail = AuthError(.invalidEmail)
    public static let emailExists = AuthError(.emailExists)
    public static let invalidOOBCode = AuthError(.invalidOOBCode)
    public static let expiredOOBCode = AuthError(.expiredOOBCode)
}
