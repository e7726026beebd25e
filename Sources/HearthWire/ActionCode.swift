public import Foundation

/// The kind of email action a code performs, with the SDKs' case names.
public enum ActionCodeOperation: Int, Sendable, Codable, CaseIterable {
    case unknown, passwordReset, verifyEmail, recoverEmail, emailLink, verifyAndChangeEmail

    /// The `requestType` of `accounts:sendOobCode` and of `accounts:resetPassword` answers.
    public var requestType: String {
        switch self {
        case .unknown: "OOB_REQ_TYPE_UNSPECIFIED"
        case .passwordReset: "PASSWORD_RESET"
        case .verifyEmail: "VERIFY_EMAIL"
        case .recoverEmail: "RECOVER_EMAIL"
        case .emailLink: "EMAIL_SIGNIN"
        case .verifyAndChangeEmail: "VERIFY_AND_CHANGE_EMAIL"
        }
    }

    /// The `mode` query parameter of an action link.
    public var mode: String? {
        switch self {
        case .unknown: nil
        case .passwordReset: "resetPassword"
        case .verifyEmail: "verifyEmail"
        case .recoverEmail: "recoverEmail"
        case .emailLink: "signIn"
        case .verifyAndChangeEmail: "verifyAndChangeEmail"
        }
    }

    /// The operation a `requestType` names (case-insensitively), `.unknown` otherwise.
    public init(requestType: String) {
        let upper = requestType.uppercased()
        self = Self.allCases.first { $0 != .unknown && $0.requestType == upper } ?? .unknown
    }

    /// The operation a link's `mode` names, `.unknown` otherwise.
    public init(mode: String) {
        self = Self.allCases.first { $0.mode == mode } ?? .unknown
    }
}

/// How an email action's link continues: the continue URL, and which app may handle it.
/// One type shared by the client and admin SDKs. Not thread-safe to mutate from several
/// threads at once in Firebase; here every access is guarded so it is `Sendable`.
public final class ActionCodeSettings: @unchecked Sendable {
    private let lock = NSLock()
    private var _url: URL?
    private var _handleCodeInApp = false
    private var _iOSBundleID: String?
    private var _androidPackageName: String?
    private var _androidInstallIfNotAvailable = false
    private var _androidMinimumVersion: String?
    private var _linkDomain: String?

    /// Settings with no continue URL and the code handled on the web.
    public init() {}

    /// The continue URL (`continueUrl`).
    public var url: URL? {
        get { lock.withLock { _url } }
        set { lock.withLock { _url = newValue } }
    }
    /// Whether the app opens the link itself (`canHandleCodeInApp`).
    public var handleCodeInApp: Bool {
        get { lock.withLock { _handleCodeInApp } }
        set { lock.withLock { _handleCodeInApp = newValue } }
    }
    /// The iOS bundle ID that may open the link (`iOSBundleId`).
    public var iOSBundleID: String? {
        get { lock.withLock { _iOSBundleID } }
        set { lock.withLock { _iOSBundleID = newValue } }
    }
    /// The Android package that may open the link (`androidPackageName`).
    public var androidPackageName: String? { lock.withLock { _androidPackageName } }
    /// Whether Android should offer to install the app (`androidInstallApp`).
    public var androidInstallIfNotAvailable: Bool { lock.withLock { _androidInstallIfNotAvailable } }
    /// The minimum Android app version (`androidMinimumVersion`).
    public var androidMinimumVersion: String? { lock.withLock { _androidMinimumVersion } }
    /// The Hosting link domain that wraps links the app handles (`linkDomain`).
    public var linkDomain: String? {
        get { lock.withLock { _linkDomain } }
        set { lock.withLock { _linkDomain = newValue } }
    }

    /// Names the Android app that may open the link.
    public func setAndroidPackageName(
        _ androidPackageName: String,
        installIfNotAvailable: Bool,
        minimumVersion: String?
    ) {
        lock.withLock {
            _androidPackageName = androidPackageName
            _androidInstallIfNotAvailable = installIfNotAvailable
            _androidMinimumVersion = minimumVersion
        }
    }

    /// The settings as the wire fields of `accounts:sendOobCode`.
    public var wireFields: ActionCodeSettingsFields {
        lock.withLock {
            ActionCodeSettingsFields(
                continueURL: _url?.absoluteString,
                canHandleCodeInApp: _handleCodeInApp ? true : nil,
                iOSBundleID: _iOSBundleID,
                androidPackageName: _androidPackageName,
                androidInstallApp: _androidPackageName == nil ? nil : _androidInstallIfNotAvailable,
                androidMinimumVersion: _androidMinimumVersion,
                linkDomain: _linkDomain
            )
        }
    }
}

/// The `ActionCodeSettings` fields of an `accounts:sendOobCode` body, flattened into it.
public struct ActionCodeSettingsFields: Sendable, Codable, Equatable {
    public var continueURL: String?
    public var canHandleCodeInApp: Bool?
    public var iOSBundleID: String?
    public var iOSAppStoreID: String?
    public var androidPackageName: String?
    public var androidInstallApp: Bool?
    public var androidMinimumVersion: String?
    public var linkDomain: String?
    /// The retired Dynamic Links domain; the server answers it with a clear error.
    public var dynamicLinkDomain: String?

    public init(
        continueURL: String? = nil,
        canHandleCodeInApp: Bool? = nil,
        iOSBundleID: String? = nil,
        iOSAppStoreID: String? = nil,
        androidPackageName: String? = nil,
        androidInstallApp: Bool? = nil,
        androidMinimumVersion: String? = nil,
        linkDomain: String? = nil,
        dynamicLinkDomain: String? = nil
    ) {
        self.continueURL = continueURL
        self.canHandleCodeInApp = canHandleCodeInApp
        self.iOSBundleID = iOSBundleID
        self.iOSAppStoreID = iOSAppStoreID
        self.androidPackageName = androidPackageName
        self.androidInstallApp = androidInstallApp
        self.androidMinimumVersion = androidMinimumVersion
        self.linkDomain = linkDomain
        self.dynamicLinkDomain = dynamicLinkDomain
    }

    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable {
        case continueURL = "continueUrl"
        case canHandleCodeInApp
        case iOSBundleID = "iOSBundleId"
        case iOSAppStoreID = "iOSAppStoreId"
        case androidPackageName, androidInstallApp, androidMinimumVersion
        case linkDomain, dynamicLinkDomain
    }
}

/// An email action link taken apart: `mode`, `oobCode`, `apiKey`, `continueUrl`, `lang`.
/// Links wrapped for an app (`https://<linkDomain>/__/auth/links?link=<action link>`, or any
/// deep link carrying the action link in `link=` or `deep_link_id=`) are unwrapped first.
public struct ActionCodeURL: Sendable, Equatable {
    /// What the code does (`mode`).
    public var operation: ActionCodeOperation
    /// The out-of-band code (`oobCode`).
    public var code: String
    /// The project's API key (`apiKey`).
    public var apiKey: String?
    /// Where the app continues (`continueUrl`).
    public var continueURL: URL?
    /// The language of the action (`lang`).
    public var languageCode: String?

    /// The action in `link`, or nil when it holds no `oobCode` and `mode`.
    public init?(link: String) {
        var current = link
        // Unwrap at most a few nested wrappers; an action link has its own oobCode.
        for _ in 0..<4 {
            guard let items = URLComponents(string: current)?.queryItems else { return nil }
            func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
            if let code = value("oobCode"), let mode = value("mode"), !code.isEmpty {
                operation = ActionCodeOperation(mode: mode)
                self.code = code
                apiKey = value("apiKey")
                continueURL = value("continueUrl").flatMap(URL.init(string:))
                languageCode = value("lang")
                return
            }
            guard let inner = value("link") ?? value("deep_link_id") else { return nil }
            current = inner
        }
        return nil
    }
}
