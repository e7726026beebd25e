/// The JSON form of a project, used by configuration files and by the store's document.
extension Project: Codable {
    enum CodingKeys: String, CodingKey {
        case id = "projectId"
        case number = "projectNumber"
        case displayName
        case apiKeys
        case apps
        case authorizedDomains
        case linkDomains
        case defaultLinkDomain
        case actionURL = "actionUrl"
        case settings
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id)
        // Project numbers are decimal strings in Firebase; accept a JSON number too.
        let number: String
        if let text = try? container.decode(String.self, forKey: .number) {
            number = text
        } else {
            number = String(try container.decode(UInt64.self, forKey: .number))
        }
        self.init(
            id: id,
            number: number,
            displayName: try container.decodeIfPresent(String.self, forKey: .displayName),
            apiKeys: try container.decodeIfPresent([String].self, forKey: .apiKeys) ?? [],
            apps: try container.decodeIfPresent([App].self, forKey: .apps) ?? [],
            authorizedDomains: try container.decodeIfPresent([String].self, forKey: .authorizedDomains) ?? [],
            linkDomains: try container.decodeIfPresent([String].self, forKey: .linkDomains) ?? [],
            defaultLinkDomain: try container.decodeIfPresent(String.self, forKey: .defaultLinkDomain),
            actionURL: try container.decodeIfPresent(String.self, forKey: .actionURL),
            settings: try container.decodeIfPresent(ProjectSettings.self, forKey: .settings) ?? ProjectSettings()
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(number, forKey: .number)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(apiKeys, forKey: .apiKeys)
        try container.encode(apps, forKey: .apps)
        try container.encode(authorizedDomains, forKey: .authorizedDomains)
        try container.encode(linkDomains, forKey: .linkDomains)
        try container.encodeIfPresent(defaultLinkDomain, forKey: .defaultLinkDomain)
        try container.encodeIfPresent(actionURL, forKey: .actionURL)
        try container.encode(settings, forKey: .settings)
    }
}
