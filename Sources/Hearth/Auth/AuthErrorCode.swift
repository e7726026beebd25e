import Foundation

/// An error of ``Auth`` and ``User``, spelled as FirebaseAuth's `AuthErrorCode` so that
/// `catch AuthErrorCode.wrongPassword` reads the same.
///
/// Every error Hearth answers maps to a ``Code``; a server code this SDK does not know
/// becomes ``Code/internalError`` with the server's code in ``serverCode``.
public struct AuthErrorCode: Error, Sendable, CustomStringConvertible {
    /// What went wrong. Raw values are FirebaseAuth's.
    public enum Code: Int, Sendable {
        /// The email and password do not match an account (sign-in with enumeration
        /// protection), or a credential is malformed.
        case invalidCredential = 17004
        /// The account is disabled.
        case userDisabled = 17005
        /// The sign-in method is disabled for the project.
        case operationNotAllowed = 17006
        /// Another account has this email.
        case emailAlreadyInUse = 17007
        /// The email is malformed, or does not match the email link's.
        case invalidEmail = 17008
        /// The password is wrong.
        case wrongPassword = 17009
        /// Too many requests from this device or for this account: try later.
        case tooManyRequests = 17010
        /// No account has this email or ID.
        case userNotFound = 17011
        /// The operation needs a recent sign-in.
        case requiresRecentLogin = 17014
        /// The user's ID token or refresh token is no longer valid: sign in again.
        case invalidUserToken = 17017
        /// Hearth could not be reached.
        case networkError = 17020
        /// The user's session expired or was revoked: sign in again.
        case userTokenExpired = 17021
        /// The API key is not one of the project's.
        case invalidAPIKey = 17023
        /// The password is too short.
        case weakPassword = 17026
        /// The app is not allowed to use the project.
        case appNotAuthorized = 17028
        /// The action code expired.
        case expiredActionCode = 17029
        /// The action code is malformed, used, or for another operation.
        case invalidActionCode = 17030
        /// The message could not be built from the project's template.
        case invalidMessagePayload = 17031
        /// The sender address of the project's template is invalid.
        case invalidSender = 17032
        /// The recipient address is invalid.
        case invalidRecipientEmail = 17033
        /// An email is required.
        case missingEmail = 17034
        /// An iOS bundle ID is required by the action code settings.
        case missingIosBundleID = 17036
        /// An Android package name is required by the action code settings.
        case missingAndroidPackageName = 17037
        /// The continue URL's domain is not one of the project's authorized domains.
        case unauthorizedDomain = 17038
        /// The continue URL is not a valid absolute URL.
        case invalidContinueURI = 17039
        /// A continue URL is required.
        case missingContinueURI = 17040
        /// A quota of the project is exhausted.
        case quotaExceeded = 17052
        /// The email of the account is not verified.
        case unverifiedEmail = 17086
        /// The email change needs verification of the new address first.
        case emailChangeNeedsVerification = 17090
        /// A value passed to the SDK is unusable (such as an email link that is not one).
        case argumentError = 17095
        /// The request type is not one Hearth knows.
        case invalidReqType = 17207
        /// The password does not meet the project's policy.
        case passwordDoesNotMeetRequirements = 17211
        /// The link domain is not one of the project's.
        case invalidHostingLinkDomain = 17214
        /// The SDK could not save or read the signed-in user.
        case keychainError = 17995
        /// Any other failure, including a server code this SDK does not know.
        case internalError = 17999
    }

    /// What went wrong.
    public let code: Code
    /// Hearth's message code (`EMAIL_EXISTS`), when the error came from Hearth.
    public let serverCode: String?
    /// A sentence for a developer.
    public let message: String

    init(_ code: Code, _ message: String, serverCode: String? = nil) {
        self.code = code
        self.message = message
        self.serverCode = serverCode
    }

    /// The code and the message.
    public var description: String { "AuthErrorCode.\(code): \(message)" }
}

extension AuthErrorCode.Code {
    /// Matches an error against a code, so that `catch AuthErrorCode.<code>` catches it.
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? AuthErrorCode)?.code == code
    }
}

extension AuthErrorCode {
    /// The error for an Identity Toolkit or Secure Token error message
    /// (`CODE` or `CODE : detail`).
    init(serverMessage: String, status: Int) {
        let parts = serverMessage.split(separator: ":", maxSplits: 1)
        let serverCode = parts.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let detail = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : serverMessage
        self.init(Self.code(forServerCode: serverCode, status: status), detail, serverCode: serverCode)
    }

    private static func code(forServerCode serverCode: String, status: Int) -> Code {
        switch serverCode {
        case "INVALID_LOGIN_CREDENTIALS", "INVALID_IDP_RESPONSE", "INVALID_CUSTOM_TOKEN": .invalidCredential
        case "USER_DISABLED": .userDisabled
        case "OPERATION_NOT_ALLOWED", "PASSWORD_LOGIN_DISABLED", "ADMIN_ONLY_OPERATION", "INSUFFICIENT_PERMISSION":
            .operationNotAllowed
        case "EMAIL_EXISTS": .emailAlreadyInUse
        case "INVALID_EMAIL": .invalidEmail
        case "INVALID_PASSWORD", "MISSING_PASSWORD": .wrongPassword
        case "TOO_MANY_ATTEMPTS_TRY_LATER", "RESET_PASSWORD_EXCEED_LIMIT": .tooManyRequests
        case "EMAIL_NOT_FOUND", "USER_NOT_FOUND": .userNotFound
        case "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": .requiresRecentLogin
        case "INVALID_ID_TOKEN", "MISSING_ID_TOKEN", "INVALID_REFRESH_TOKEN", "MISSING_REFRESH_TOKEN",
            "INVALID_GRANT_TYPE",
            "MISSING_GRANT_TYPE":
            .invalidUserToken
        case "TOKEN_EXPIRED": .userTokenExpired
        case "INVALID_API_KEY", "API_KEY_INVALID", "MISSING_API_KEY": .invalidAPIKey
        case "WEAK_PASSWORD": .weakPassword
        case "EXPIRED_OOB_CODE": .expiredActionCode
        case "INVALID_OOB_CODE", "MISSING_OOB_CODE": .invalidActionCode
        case "INVALID_MESSAGE_PAYLOAD": .invalidMessagePayload
        case "INVALID_SENDER": .invalidSender
        case "INVALID_RECIPIENT_EMAIL": .invalidRecipientEmail
        case "MISSING_EMAIL", "MISSING_NEW_EMAIL": .missingEmail
        case "MISSING_IOS_BUNDLE_ID", "INVALID_IOS_BUNDLE_ID": .missingIosBundleID
        case "MISSING_ANDROID_PACKAGE_NAME", "INVALID_ANDROID_PACKAGE_NAME": .missingAndroidPackageName
        case "UNAUTHORIZED_DOMAIN": .unauthorizedDomain
        case "INVALID_CONTINUE_URI": .invalidContinueURI
        case "MISSING_CONTINUE_URI": .missingContinueURI
        case "QUOTA_EXCEEDED": .quotaExceeded
        case "UNVERIFIED_EMAIL": .unverifiedEmail
        case "EMAIL_CHANGE_NEEDS_VERIFICATION": .emailChangeNeedsVerification
        case "INVALID_REQ_TYPE", "MISSING_REQ_TYPE": .invalidReqType
        case "PASSWORD_DOES_NOT_MEET_REQUIREMENTS": .passwordDoesNotMeetRequirements
        case "INVALID_HOSTING_LINK_DOMAIN", "INVALID_DYNAMIC_LINK_DOMAIN": .invalidHostingLinkDomain
        default:
            switch status {
            case 429: .tooManyRequests
            case 403 where serverCode.localizedCaseInsensitiveContains("API key"): .invalidAPIKey
            default: .internalError
            }
        }
    }
}
