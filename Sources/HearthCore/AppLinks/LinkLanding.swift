public import HearthBase
import HearthWire

/// What the link-domain landing page (`/__/auth/links?link=<payload>`) does with its payload:
/// a browser shows it when no installed app took the link.
public enum LinkLanding: Sendable, Equatable {
    /// Send the browser on (302) to the payload: Hearth's own action link of the project, or
    /// one of its authorized continue URLs.
    case forward(String)
    /// Show a page that offers the app the link was sent for, and the payload.
    case offer(AppOffer)
    /// Show a refusal page that names no part of the payload.
    case refuse(LinkRefusal)
}

/// The apps a landing page offers, with where each link leads.
public struct AppOffer: Sendable, Equatable {
    /// The payload, safe to follow (it passed the same checks as a forward).
    public var openLink: String
    /// `https://apps.apple.com/app/id<digits>`, when the iOS app registers an App Store ID.
    public var appStoreURL: String?
    /// `https://play.google.com/store/apps/details?id=<package>`, when the send asked to
    /// install the Android app or named a minimum version.
    public var playStoreURL: String?
    /// The oldest Android version that handles the link, when the send named one.
    public var androidMinimumVersion: String?

    public init(
        openLink: String,
        appStoreURL: String? = nil,
        playStoreURL: String? = nil,
        androidMinimumVersion: String? = nil
    ) {
        self.openLink = openLink
        self.appStoreURL = appStoreURL
        self.playStoreURL = playStoreURL
        self.androidMinimumVersion = androidMinimumVersion
    }
}

/// Why a payload was refused: one case per class of attack or mistake, so each is tested.
public enum LinkRefusal: String, Error, Sendable, Equatable, CaseIterable {
    /// No `link` parameter, or an empty one.
    case missing
    /// Spaces, control characters (a tab or newline a browser drops silently) or anything
    /// beyond a sane length.
    case controlCharacter
    /// A backslash, which browsers read as `/` in special URLs.
    case backslash
    /// `//host/…`: the browser would take the scheme of the page.
    case protocolRelative
    /// A scheme that is itself percent-encoded (`https%3A//…`, `%6Aavascript:`).
    case encodedScheme
    /// `javascript:`, `data:` or `vbscript:`: code, not a place.
    case scriptScheme
    /// Any other scheme than `http`/`https`, or no scheme at all.
    case unsupportedScheme
    /// `https://user@host`: user-info hides the real host from people.
    case userInfo
    /// A host or port that cannot be read.
    case malformed
    /// A well-formed URL that is neither the project's action link nor on its authorized domains.
    case foreign
}

/// Decides what `/__/auth/links` does for the project that owns the link domain. Pure: the
/// route reads the request and renders the answer.
///
/// The payload is taken apart structurally (scheme, authority, path, query) and every part a
/// browser could read differently is refused outright rather than repaired.
public struct LinkLandingPolicy: Sendable {
    public let project: Project
    /// Hearth's public base URL; its `/__/auth/action` is the project's action page unless the
    /// project names its own.
    public let publicURL: String

    public init(project: Project, publicURL: String) {
        self.project = project
        self.publicURL = publicURL
    }

    public func decide(payload: String?, hints: AppLinkHints = AppLinkHints()) -> LinkLanding {
        let url: ContinueURL
        switch Self.parse(payload) {
        case .failure(let refusal): return .refuse(refusal)
        case .success(let parsed): url = parsed
        }
        guard isActionLink(url) || ContinueURLPolicy(project: project).allows(url.text) else {
            return .refuse(.foreign)
        }
        guard let offer = offer(url.text, hints) else { return .forward(url.text) }
        return .offer(offer)
    }

    /// Whether `url` is an action link of this project: Hearth's (or the project's custom)
    /// action page, a known mode, a code, and one of the project's API keys.
    func isActionLink(_ url: ContinueURL) -> Bool {
        let page = project.actionURL ?? publicURL + "/__/auth/action"
        guard let action = try? ContinueURL(page), action.scheme == url.scheme, action.host == url.host,
            Self.port(action) == Self.port(url), action.path == url.path
        else { return false }
        let query = QueryItems(formEncoded: url.query)
        guard let mode = query["mode"], ActionCodeOperation(mode: mode) != nil, let code = query["oobCode"],
            !code.isEmpty, let apiKey = query["apiKey"]
        else { return false }
        return project.hasAPIKey(apiKey)
    }

    private func offer(_ link: String, _ hints: AppLinkHints) -> AppOffer? {
        let iOSApp = hints.iOSBundleID.flatMap { bundleID in
            project.apps.first { $0.platform == .ios && $0.bundleID == bundleID }
        }
        let androidApp = hints.androidPackageName.flatMap { packageName in
            project.apps.first { $0.platform == .android && $0.packageName == packageName }
        }
        guard iOSApp != nil || androidApp != nil else { return nil }
        var offer = AppOffer(openLink: link)
        if let storeID = iOSApp?.appStoreID, Self.isStoreID(storeID) {
            offer.appStoreURL = "https://apps.apple.com/app/id\(storeID)"
        }
        if let androidApp, let packageName = androidApp.packageName {
            let minimumVersion = hints.androidMinimumVersion.flatMap { Self.isVersion($0) ? $0 : nil }
            if hints.androidInstallApp || minimumVersion != nil {
                offer.playStoreURL =
                    "https://play.google.com/store/apps/details?id="
                    + PercentEncoding.encode(packageName, keeping: PercentEncoding.queryValueCharacters)
                offer.androidMinimumVersion = minimumVersion
            }
        }
        return offer
    }

    /// The payload taken apart, or the class of its refusal.
    static func parse(_ payload: String?) -> Result<ContinueURL, LinkRefusal> {
        guard let payload, !payload.isEmpty else { return .failure(.missing) }
        let bytes = payload.utf8
        if bytes.count > 4096 || bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            return .failure(.controlCharacter)
        }
        if bytes.contains(UInt8(ascii: "\\")) { return .failure(.backslash) }
        if bytes.starts(with: "//".utf8) { return .failure(.protocolRelative) }
        let schemeEnd = bytes.firstIndex {
            $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
        }
        guard let schemeEnd, bytes[schemeEnd] == UInt8(ascii: ":") else {
            // No scheme before the first separator: relative, or a scheme hidden behind `%3A`.
            return .failure(payload.lowercased().contains("%3a") ? .encodedScheme : .unsupportedScheme)
        }
        let scheme = payload[..<schemeEnd].lowercased()
        if scheme.contains("%") { return .failure(.encodedScheme) }
        if ["javascript", "data", "vbscript"].contains(scheme) { return .failure(.scriptScheme) }
        guard scheme == "http" || scheme == "https" else { return .failure(.unsupportedScheme) }
        do throws(ContinueURL.ParseError) {
            return .success(try ContinueURL(payload))
        } catch {
            switch error {
            case .userInfo: return .failure(.userInfo)
            case .notAbsolute, .unsupportedScheme: return .failure(.unsupportedScheme)
            case .forbiddenCharacter: return .failure(.controlCharacter)
            case .badHost, .badPort: return .failure(.malformed)
            }
        }
    }

    private static func port(_ url: ContinueURL) -> Int {
        url.port ?? (url.scheme == "https" ? 443 : 80)
    }

    private static func isStoreID(_ text: String) -> Bool {
        (1...20).contains(text.utf8.count) && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    private static func isVersion(_ text: String) -> Bool {
        (1...32).contains(text.utf8.count)
            && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }
    }
}
