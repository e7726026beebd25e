/// Where an emailed link should bring the user back to, as `sendOobCode` receives it
/// (Firebase's `ActionCodeSettings`).
public struct ActionCodeSettings: Sendable, Equatable {
    public var continueURL: String?
    public var canHandleCodeInApp = false
    public var iOSBundleID: String?
    public var iOSAppStoreID: String?
    public var androidPackageName: String?
    public var androidInstallApp = false
    public var androidMinimumVersion: String?
    public var linkDomain: String?
    /// Firebase Dynamic Links' domain; the service is retired, so any value is refused.
    public var dynamicLinkDomain: String?

    public init(
        continueURL: String? = nil,
        canHandleCodeInApp: Bool = false,
        iOSBundleID: String? = nil,
        iOSAppStoreID: String? = nil,
        androidPackageName: String? = nil,
        androidInstallApp: Bool = false,
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
}

/// Settings that passed `ContinueURLPolicy`: safe to put in a link.
public struct AcceptedActionCodeSettings: Sendable, Equatable {
    /// The continue URL exactly as given (it was checked, not rewritten).
    public var continueURL: String?
    /// Whether the app handles the code: the emailed link is then the `/__/auth/links` form.
    public var handledInApp: Bool
    public var iOSBundleID: String?
    public var androidPackageName: String?
    /// Whether the landing page should offer to install the Android app when it is missing.
    public var androidInstallApp: Bool
    public var androidMinimumVersion: String?
    /// The canonical link domain that was asked for, if any.
    public var linkDomain: String?

    public init(
        continueURL: String?,
        handledInApp: Bool,
        iOSBundleID: String? = nil,
        androidPackageName: String? = nil,
        androidInstallApp: Bool = false,
        androidMinimumVersion: String? = nil,
        linkDomain: String? = nil
    ) {
        self.continueURL = continueURL
        self.handledInApp = handledInApp
        self.iOSBundleID = iOSBundleID
        self.androidPackageName = androidPackageName
        self.androidInstallApp = androidInstallApp
        self.androidMinimumVersion = androidMinimumVersion
        self.linkDomain = linkDomain
    }

    /// Whether the send named a registered app that does not handle the code itself: the
    /// continue URL then becomes a back-to-app link (see `BackToAppLink`).
    public var returnsToApp: Bool {
        !handledInApp && (iOSBundleID != nil || androidPackageName != nil)
    }

    /// The app hints a back-to-app link carries.
    public var appLinkHints: AppLinkHints {
        AppLinkHints(
            iOSBundleID: iOSBundleID,
            androidPackageName: androidPackageName,
            androidInstallApp: androidInstallApp,
            androidMinimumVersion: androidMinimumVersion
        )
    }
}

/// Why `ActionCodeSettings` were refused: a Firebase error code and a detail for people.
public struct ActionCodeSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: String
    public let detail: String

    public init(_ code: String, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// `CODE : detail`, as Identity Toolkit writes its error messages.
    public var description: String { "\(code) : \(detail)" }
}
