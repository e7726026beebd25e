public import HearthWire

/// The action code settings of a send (HearthWire's `ActionCodeSettingsFields`, the one
/// wire shape of Firebase's `ActionCodeSettings`) once `ContinueURLPolicy` accepted them:
/// safe to put in a link. Empty texts are absent; the App Store ID and the Android install
/// options are kept only with the app they belong to.
public struct AcceptedActionCodeSettings: Sendable, Equatable {
    /// The continue URL exactly as given (it was checked, not rewritten).
    public var continueURL: String?
    /// Whether the app handles the code: the emailed link is then the `/__/auth/links` form.
    public var handledInApp: Bool
    /// A registered iOS app of the project.
    public var iOSBundleID: String?
    /// The iOS app's App Store ID, when given with `iOSBundleID`.
    public var iOSAppStoreID: String?
    /// A registered Android app of the project.
    public var androidPackageName: String?
    /// Whether to offer installing the Android app (only with `androidPackageName`).
    public var androidInstallApp: Bool
    /// The Android app's minimum version (only with `androidPackageName`).
    public var androidMinimumVersion: String?
    /// The canonical link domain that was asked for, if any.
    public var linkDomain: String?

    public init(
        continueURL: String?,
        handledInApp: Bool,
        iOSBundleID: String? = nil,
        iOSAppStoreID: String? = nil,
        androidPackageName: String? = nil,
        androidInstallApp: Bool = false,
        androidMinimumVersion: String? = nil,
        linkDomain: String? = nil
    ) {
        self.continueURL = continueURL
        self.handledInApp = handledInApp
        self.iOSBundleID = iOSBundleID
        self.iOSAppStoreID = iOSAppStoreID
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

/// Why action code settings were refused: a Firebase error code and a detail for people.
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
