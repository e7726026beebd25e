/// A Firebase-style project: the unit that owns API keys, apps, domains, signing keys,
/// users and installations.
///
/// Every request reads its project, and copies it along the way (into closures, builders and
/// the mail composer's request). The fields live in one immutable box that copies share, so
/// a copy costs one reference count instead of one per field; setting a field (configuration
/// only) makes a new box.
public struct Project: Sendable, Equatable {
    private struct Fields: Sendable, Equatable {
        var id: String
        var number: String
        var displayName: String
        var apiKeys: [String]
        var apps: [App]
        var authorizedDomains: [String]
        var linkDomains: [String]
        var defaultLinkDomain: String?
        var actionURL: String?
        var settings: ProjectSettings
    }

    private final class Box: Sendable {
        let fields: Fields
        /// The `From` mailbox of the project's emails, worked out once per box rather than
        /// parsed again for every email.
        let sender: Result<MailAddress, MailError>

        init(_ fields: Fields) {
            self.fields = fields
            let appName = fields.settings.appName ?? fields.displayName
            do {
                sender = .success(try Project.sender(id: fields.id, appName: appName, from: fields.settings.mail.from))
            } catch {
                sender = .failure(error)
            }
        }
    }

    private var box: Box

    /// The project ID, e.g. `demo-project`.
    public var id: String {
        get { box.fields.id }
        set { update { $0.id = newValue } }
    }
    /// The project number, e.g. `100000000000` (decimal digits, kept as a string).
    public var number: String {
        get { box.fields.number }
        set { update { $0.number = newValue } }
    }
    public var displayName: String {
        get { box.fields.displayName }
        set { update { $0.displayName = newValue } }
    }
    /// Keys that identify (not authenticate) client calls: `key=` or `x-goog-api-key`.
    public var apiKeys: [String] {
        get { box.fields.apiKeys }
        set { update { $0.apiKeys = newValue } }
    }
    public var apps: [App] {
        get { box.fields.apps }
        set { update { $0.apps = newValue } }
    }
    /// Hosts a continue URL may point at; `*.example.com` authorises sub-domains.
    public var authorizedDomains: [String] {
        get { box.fields.authorizedDomains }
        set { update { $0.authorizedDomains = newValue } }
    }
    /// Hosts that may serve `/__/auth/links` for apps that handle codes themselves.
    public var linkDomains: [String] {
        get { box.fields.linkDomains }
        set { update { $0.linkDomains = newValue } }
    }
    /// The link domain used when a request names none; the first link domain if `nil`.
    public var defaultLinkDomain: String? {
        get { box.fields.defaultLinkDomain }
        set { update { $0.defaultLinkDomain = newValue } }
    }
    /// A custom page that handles action links instead of Hearth's `/__/auth/action`.
    public var actionURL: String? {
        get { box.fields.actionURL }
        set { update { $0.actionURL = newValue } }
    }
    public var settings: ProjectSettings {
        get { box.fields.settings }
        set { update { $0.settings = newValue } }
    }

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
        box = Box(
            Fields(
                id: id,
                number: number,
                displayName: displayName ?? id,
                apiKeys: apiKeys,
                apps: apps,
                authorizedDomains: authorizedDomains,
                linkDomains: linkDomains,
                defaultLinkDomain: defaultLinkDomain,
                actionURL: actionURL,
                settings: settings
            )
        )
    }

    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = box.fields
        change(&fields)
        box = Box(fields)
    }

    public static func == (lhs: Project, rhs: Project) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    /// The `From` mailbox of the project's emails (see `MailSettings.from`).
    public func mailSender() throws(MailError) -> MailAddress { try box.sender.get() }

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
