public import Foundation

/// The kind of email action a code performs, with the SDKs' case names: the one list of
/// actions, which the server's codes, links and emails (`MailKind.action`) use too.
public enum ActionCodeOperation: Int, Sendable, Codable, CaseIterable {
    /// What the SDKs report for a code or answer they cannot place; no code performs it.
    case unknown
    case passwordReset, verifyEmail, recoverEmail, emailLink, verifyAndChangeEmail

    /// The operations a code can perform: every case but `.unknown`.
    public static let actions: [ActionCodeOperation] = allCases.filter { $0 != .unknown }

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

    /// The action whose `requestType` is exactly `requestType` (as the server stores and
    /// receives it), `nil` for anything else, `OOB_REQ_TYPE_UNSPECIFIED` included.
    public init?(exactRequestType requestType: String) {
        guard let operation = Self.actions.first(where: { $0.requestType == requestType }) else { return nil }
        self = operation
    }

    /// The action a link's `mode` names; `nil` for any other mode.
    public init?(mode: String) {
        guard let operation = Self.actions.first(where: { $0.mode == mode }) else { return nil }
        self = operation
    }
}

/// How an email action's link continues: the continue URL, and which app may handle it.
/// One type shared by the client and admin SDKs; every access is guarded by a lock, so it is
/// `Sendable`.
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
    /// The continue URL (`continueUrl`).
    public var continueURL: String?
    /// Whether the app opens the link itself.
    public var canHandleCodeInApp: Bool?
    /// The iOS bundle ID (`iOSBundleId`).
    public var iOSBundleID: String?
    /// The App Store ID (`iOSAppStoreId`).
    public var iOSAppStoreID: String?
    /// The Android package name.
    public var androidPackageName: String?
    /// Whether Android should offer to install the app.
    public var androidInstallApp: Bool?
    /// The minimum Android app version.
    public var androidMinimumVersion: String?
    /// The Hosting link domain that wraps the link.
    public var linkDomain: String?
    /// The retired Dynamic Links domain; the server answers it with a clear error.
    public var dynamicLinkDomain: String?

    /// Makes the value from its fields.
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
    /// What the code does (`mode`), `.unknown` for a mode no action has.
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
                operation = ActionCodeOperation(mode: mode) ?? .unknown
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
