/// A Firebase-style project: the unit that owns API keys, apps, domains, signing keys,
/// users and installations.
public struct Project: Sendable, Equatable {
    /// The project ID, e.g. `demo-project`.
    public var id: String
    /// The project number, e.g. `100000000000` (decimal digits, kept as a string).
    public var number: String
    public var displayName: String
    /// Keys that identify (not authenticate) client calls: `key=` or `x-goog-api-key`.
    public var apiKeys: [String]
    public var apps: [App]
    /// Hosts a continue URL may point at; `*.example.com` authorises sub-domains.
    public var authorizedDomains: [String]
    /// Hosts that may serve `/__/auth/links` for apps that handle codes themselves.
    public var linkDomains: [String]
    /// The link domain used when a request names none; the first link domain if `nil`.
    public var defaultLinkDomain: String?
    /// A custom page that handles action links instead of Hearth's `/__/auth/action`.
    public var actionURL: String?
    public var settings: ProjectSettings

    public init(
        id: String,
        number: String,
        displayName: String? = nil,
        apiKeys: [String] = [],
        apps: [App] = [],
        authorizedDomains: [String] = [],
        linkDomains: [String] = [],
        defaultLinkDomain: String? = nil,
        actionURL: String? = nil,
        settings: ProjectSettings = ProjectSettings()
    ) {
        self.id = id
        self.number = number
        self.displayName = displayName ?? id
        self.apiKeys = apiKeys
        self.apps = apps
        self.authorizedDomains = authorizedDomains
        self.linkDomains = linkDomains
        self.defaultLinkDomain = defaultLinkDomain
        self.actionURL = actionURL
        self.settings = settings
    }

    public func app(id: String) -> App? { apps.first { $0.id == id } }

    public func hasAPIKey(_ key: String) -> Bool { apiKeys.contains(key) }

    /// The link domain for `/__/auth/links` wrapping when the request names none.
    public var preferredLinkDomain: String? { defaultLinkDomain ?? linkDomains.first }
}

/// An app registered in a project.
public struct App: Sendable, Equatable, Codable {
    public enum Platform: String, Sendable, Codable, CaseIterable {
        case web, ios, android
    }

    /// The Firebase app ID, `1:<projectNumber>:<platform>:<hex>`.
    public var id: String
    public var platform: Platform
    /// iOS: the bundle ID and the Apple developer team ID (for Universal Links).
    public var bundleID: String?
    public var teamID: String?
    public var appStoreID: String?
    /// Android: the package name and the SHA-256 signing-certificate fingerprints (App Links).
    public var packageName: String?
    public var sha256CertificateFingerprints: [String]

    public init(
        id: String,
        platform: Platform,
        bundleID: String? = nil,
        teamID: String? = nil,
        appStoreID: String? = nil,
        packageName: String? = nil,
        sha256CertificateFingerprints: [String] = []
    ) {
        self.id = id
        self.platform = platform
        self.bundleID = bundleID
        self.teamID = teamID
        self.appStoreID = appStoreID
        self.packageName = packageName
        self.sha256CertificateFingerprints = sha256CertificateFingerprints
    }

    enum CodingKeys: String, CodingKey {
        case id = "appId"
        case platform
        case bundleID = "bundleId"
        case teamID = "teamId"
        case appStoreID = "appStoreId"
        case packageName
        case sha256CertificateFingerprints = "sha256CertFingerprints"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        platform = try container.decode(Platform.self, forKey: .platform)
        bundleID = try container.decodeIfPresent(String.self, forKey: .bundleID)
        teamID = try container.decodeIfPresent(String.self, forKey: .teamID)
        appStoreID = try container.decodeIfPresent(String.self, forKey: .appStoreID)
        packageName = try container.decodeIfPresent(String.self, forKey: .packageName)
        sha256CertificateFingerprints =
            try container.decodeIfPresent([String].self, forKey: .sha256CertificateFingerprints) ?? []
    }
}
