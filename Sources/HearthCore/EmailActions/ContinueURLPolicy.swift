public import HearthWire

/// Decides whether a send's action code settings may go into a link of `project`: the continue URL
/// must be an absolute `http(s)` URL without user-info on an authorized domain; an app that
/// handles the code itself must be a registered app of the project; a link domain must be
/// one of the project's. Every refusal is an error — never a silent fallback, so Hearth never
/// becomes an open redirect.
public struct ContinueURLPolicy: Sendable {
    public let project: Project

    public init(project: Project) {
        self.project = project
    }

    public func accept(_ settings: ActionCodeSettingsFields) throws(ActionCodeSettingsError)
        -> AcceptedActionCodeSettings
    {
        if let domain = settings.dynamicLinkDomain, !domain.isEmpty {
            throw ActionCodeSettingsError(
                "INVALID_DYNAMIC_LINK_DOMAIN",
                "Firebase Dynamic Links has been shut down; use linkDomain with one of the project's link domains"
            )
        }
        let iOSBundleID = settings.iOSBundleID.flatMap { $0.isEmpty ? nil : $0 }
        let androidPackageName = settings.androidPackageName.flatMap { $0.isEmpty ? nil : $0 }
        let iOSAppStoreID = settings.iOSAppStoreID.flatMap { $0.isEmpty ? nil : $0 }
        let androidMinimumVersion = settings.androidMinimumVersion.flatMap { $0.isEmpty ? nil : $0 }
        let androidInstallApp = settings.androidInstallApp ?? false
        let handledInApp = settings.canHandleCodeInApp ?? false
        if iOSAppStoreID != nil, iOSBundleID == nil {
            throw ActionCodeSettingsError(
                "MISSING_IOS_BUNDLE_ID",
                "An iOS bundle ID must be given with an App Store ID"
            )
        }
        if androidPackageName == nil, androidInstallApp || androidMinimumVersion != nil {
            throw ActionCodeSettingsError(
                "MISSING_ANDROID_PACKAGE_NAME",
                "An Android package name must be given to install the app or require a minimum version"
            )
        }

        let continueURL = settings.continueURL.flatMap { $0.isEmpty ? nil : $0 }
        if let continueURL { try check(continueURL) }
        if handledInApp && continueURL == nil {
            throw ActionCodeSettingsError("MISSING_CONTINUE_URI", "A continue URL must be provided in the request")
        }

        if let iOSBundleID, !project.apps.contains(where: { $0.platform == .ios && $0.bundleID == iOSBundleID }) {
            throw ActionCodeSettingsError(
                "INVALID_IOS_BUNDLE_ID",
                "The iOS bundle ID \(iOSBundleID) is not an app of project \(project.id)"
            )
        }
        if let androidPackageName,
            !project.apps.contains(where: { $0.platform == .android && $0.packageName == androidPackageName })
        {
            throw ActionCodeSettingsError(
                "INVALID_ANDROID_PACKAGE_NAME",
                "The Android package name \(androidPackageName) is not an app of project \(project.id)"
            )
        }
        if handledInApp, iOSBundleID == nil, androidPackageName == nil,
            !project.apps.contains(where: { $0.platform == .web })
        {
            throw ActionCodeSettingsError(
                "MISSING_IOS_BUNDLE_ID",
                "An app that handles the code must be named: an iOS bundle ID or Android package name of the project"
            )
        }

        var linkDomain: String?
        if let requested = settings.linkDomain, !requested.isEmpty {
            guard let canonical = HostName.canonical(requested),
                project.linkDomains.contains(where: { HostName.canonical($0) == canonical })
            else {
                throw ActionCodeSettingsError(
                    "INVALID_HOSTING_LINK_DOMAIN",
                    "The provided link domain is not configured for project \(project.id)"
                )
            }
            linkDomain = canonical
        }
        return AcceptedActionCodeSettings(
            continueURL: continueURL,
            handledInApp: handledInApp,
            iOSBundleID: iOSBundleID,
            iOSAppStoreID: iOSAppStoreID,
            androidPackageName: androidPackageName,
            androidInstallApp: androidInstallApp,
            androidMinimumVersion: androidMinimumVersion,
            linkDomain: linkDomain
        )
    }

    /// Checks one continue URL (also used again when a hosted page offers "Continue").
    public func check(_ continueURL: String) throws(ActionCodeSettingsError) {
        let url: ContinueURL
        do {
            url = try ContinueURL(continueURL)
        } catch {
            throw ActionCodeSettingsError("INVALID_CONTINUE_URI", Self.reason(error))
        }
        guard HostName.isAuthorized(url.host, by: project.authorizedDomains) else {
            throw ActionCodeSettingsError("UNAUTHORIZED_DOMAIN", "Domain not allowlisted by project")
        }
    }

    /// Whether the continue URL may be followed (the hosted pages' re-check): an authorized
    /// continue URL, or a back-to-app link on one of the project's link domains whose own
    /// payload is one (the landing page checks that payload again when it is opened).
    public func allows(_ continueURL: String) -> Bool {
        if (try? check(continueURL)) != nil { return true }
        guard let payload = BackToAppLink.payload(of: continueURL, linkDomains: project.linkDomains) else {
            return false
        }
        return (try? check(payload)) != nil
    }

    private static func reason(_ error: ContinueURL.ParseError) -> String {
        switch error {
        case .notAbsolute: "((expected an absolute URI with valid scheme and host))"
        case .unsupportedScheme: "the continue URL must use http or https"
        case .userInfo: "the continue URL must not contain user information"
        case .badHost: "the continue URL has no valid host"
        case .badPort: "the continue URL has an invalid port"
        case .forbiddenCharacter: "the continue URL contains spaces, control characters or backslashes"
        }
    }
}
