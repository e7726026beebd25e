/// Checks a project's configuration and normalises it (lower-case hosts, upper-case
/// fingerprints). Every problem is collected, so a configuration file is fixed in one pass.
public struct ProjectValidationError: Error, Sendable, CustomStringConvertible {
    public let projectID: String
    public let problems: [String]

    public var description: String {
        "project \"\(projectID)\" is invalid: " + problems.joined(separator: "; ")
    }
}

extension Project {
    /// The project with hosts and fingerprints normalised, or every problem found.
    public func validated() throws(ProjectValidationError) -> Project {
        var problems: [String] = []
        var project = self

        if !Self.isValidProjectID(id) {
            problems.append(
                "projectId must be 6 to 30 characters of lower-case letters, digits and hyphens, starting with a letter"
            )
        }
        let numberIsValid = !number.isEmpty && number.count <= 20 && number.allSatisfy(\.isASCIIDigit)
        if !numberIsValid {
            problems.append("projectNumber must be 1 to 20 decimal digits")
        }
        if apiKeys.isEmpty { problems.append("at least one API key is needed") }
        for key in apiKeys where key.isEmpty || key.count > 200 || !key.allSatisfy(\.isURLSafeTokenCharacter) {
            problems.append("API key \"\(key)\" must be 1 to 200 characters of letters, digits, '-', '_' or '.'")
        }
        if Set(apiKeys).count != apiKeys.count { problems.append("API keys are repeated") }

        var appIDs = Set<String>()
        project.apps = apps.map { app in
            var app = app
            if !appIDs.insert(app.id).inserted { problems.append("app \(app.id) is listed twice") }
            let prefix = "1:\(number):\(app.platform.rawValue):"
            if numberIsValid && (!app.id.hasPrefix(prefix) || app.id.count == prefix.count) {
                problems.append("app ID \"\(app.id)\" must look like \(prefix)<hex>")
            }
            switch app.platform {
            case .ios:
                if (app.bundleID ?? "").isEmpty { problems.append("iOS app \(app.id) needs a bundleId") }
            case .android:
                if (app.packageName ?? "").isEmpty { problems.append("Android app \(app.id) needs a packageName") }
                app.sha256CertificateFingerprints = app.sha256CertificateFingerprints.map { fingerprint in
                    guard let normalized = Self.normalizedFingerprint(fingerprint) else {
                        problems.append("fingerprint \"\(fingerprint)\" of \(app.id) is not a SHA-256 fingerprint")
                        return fingerprint
                    }
                    return normalized
                }
            case .web:
                break
            }
            return app
        }

        project.authorizedDomains = authorizedDomains.map { entry in
            let wildcard = entry.hasPrefix("*.")
            guard let host = HostName.canonical(wildcard ? entry.dropFirst(2) : entry[...]),
                !host.hasPrefix("[") || !wildcard
            else {
                problems.append("authorized domain \"\(entry)\" must be a host name (optionally \"*.\" + host)")
                return entry
            }
            return wildcard ? "*." + host : host
        }
        project.linkDomains = linkDomains.map { entry in
            guard let host = HostName.canonical(entry), !host.hasPrefix("[") else {
                problems.append("link domain \"\(entry)\" must be a host name")
                return entry
            }
            return host
        }
        if let defaultLinkDomain {
            let canonical = HostName.canonical(defaultLinkDomain) ?? defaultLinkDomain
            project.defaultLinkDomain = canonical
            if !project.linkDomains.contains(canonical) {
                problems.append("defaultLinkDomain \"\(defaultLinkDomain)\" is not one of linkDomains")
            }
        }
        if let actionURL, !(actionURL.hasPrefix("https://") || actionURL.hasPrefix("http://")) {
            problems.append("actionUrl must be an absolute http or https URL")
        }
        let settings = project.settings
        let lifetimes = [
            settings.installationTokenLifetimeSeconds, settings.idTokenLifetimeSeconds,
            settings.passwordResetCodeLifetimeSeconds, settings.verifyEmailCodeLifetimeSeconds,
            settings.emailSignInCodeLifetimeSeconds, settings.verifyAndChangeEmailCodeLifetimeSeconds,
            settings.recoverEmailCodeLifetimeSeconds, settings.installationInactivitySeconds,
        ]
        if lifetimes.contains(where: { $0 <= 0 }) { problems.append("every lifetime in settings must be positive") }
        if settings.emailsPerRecipientPerHour <= 0 || settings.emailsPerClientAddressPerHour <= 0 {
            problems.append("email send limits must be positive")
        }
        problems += settings.mail.problems().map { "settings.\($0)" }
        if let logoURL = settings.logoURL, PageBranding.logoOrigin(logoURL) == nil {
            problems.append("settings.logoUrl must be an https URL without user-info, spaces or quotes")
        }
        if let accentColor = settings.accentColor, !PageBranding.isColor(accentColor) {
            problems.append("settings.accentColor must be a colour written #rrggbb")
        }

        if !problems.isEmpty { throw ProjectValidationError(projectID: id, problems: problems) }
        return project
    }

    static func isValidProjectID(_ id: String) -> Bool {
        let utf8 = Array(id.utf8)
        guard (6...30).contains(utf8.count), let first = utf8.first, first >= 0x61, first <= 0x7A,
            utf8.last != 0x2D
        else { return false }
        return utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    /// `14:6D:E9:...` with 32 pairs, or 64 hex digits without colons; answered upper-case
    /// with colons, the form Android's `assetlinks.json` uses.
    static func normalizedFingerprint(_ text: String) -> String? {
        let digits = text.uppercased().filter { $0 != ":" }
        guard digits.count == 64, digits.allSatisfy(\.isHexDigit) else { return nil }
        var pairs: [String] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            pairs.append(String(digits[index..<next]))
            index = next
        }
        return pairs.joined(separator: ":")
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
    var isURLSafeTokenCharacter: Bool {
        isASCII && (isLetter || isNumber || self == "-" || self == "_" || self == ".")
    }
}
