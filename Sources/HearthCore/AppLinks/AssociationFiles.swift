public import HearthBase

/// The two files that let an installed app open a link domain's links instead of the browser,
/// generated from a project's registered apps: Apple's `apple-app-site-association`
/// (Universal Links) and Google's `assetlinks.json` (Android App Links). Both claim only the
/// landing page, `/__/auth/links` and what follows it; the rest of the domain stays the web's.
public struct AssociationFiles: Sendable {
    /// Where the files are served on every link domain.
    public static let applePath = "/.well-known/apple-app-site-association"
    public static let androidPath = "/.well-known/assetlinks.json"
    /// The path the apps claim, and the patterns that claim it in each form Apple reads.
    public static let claimedPath = "/__/auth/links"
    public static let claimedPattern = "/__/auth/links*"
    /// The relation Android checks before it lets an app handle a domain's links.
    public static let androidRelation = "delegate_permission/common.handle_all_urls"

    public let project: Project

    public init(project: Project) {
        self.project = project
    }

    /// The iOS apps that can claim links: a bundle ID and a team ID make the app ID Apple
    /// checks (`<teamID>.<bundleID>`); an app without a team ID cannot be associated.
    public var appleAppIDs: [String] {
        project.apps.compactMap { app in
            guard app.platform == .ios, let bundleID = app.bundleID, !bundleID.isEmpty,
                let teamID = app.teamID, !teamID.isEmpty
            else { return nil }
            return "\(teamID).\(bundleID)"
        }
    }

    /// `applinks` with one entry per app, written both ways: `appIDs` + `components` (iOS 13
    /// and later) and `appID` + `paths` (older systems, which ignore the newer keys).
    public var appleAppSiteAssociation: JSONValue {
        let details: [JSONValue] = appleAppIDs.map { appID in
            [
                "appIDs": [.string(appID)],
                "components": [["/": .string(Self.claimedPattern), "comment": "Hearth's email-action landing page"]],
                "appID": .string(appID),
                "paths": [.string(Self.claimedPattern)],
            ]
        }
        return ["applinks": ["apps": [], "details": .array(details)]]
    }

    /// One statement per Android app with its signing-certificate fingerprints.
    public var assetLinks: JSONValue {
        .array(
            project.apps.compactMap { app -> JSONValue? in
                guard app.platform == .android, let packageName = app.packageName, !packageName.isEmpty else {
                    return nil
                }
                return [
                    "relation": [.string(Self.androidRelation)],
                    "target": [
                        "namespace": "android_app",
                        "package_name": .string(packageName),
                        "sha256_cert_fingerprints": .array(app.sha256CertificateFingerprints.map { .string($0) }),
                    ],
                ]
            }
        )
    }
}

extension ProjectDirectory {
    /// The project that owns `host` (a request's `Host`, port allowed) as one of its link
    /// domains, if any.
    public func project(linkDomain host: some StringProtocol) -> Project? {
        guard let canonical = HostName.canonical(AppLinkHost.name(of: host)) else { return nil }
        return all.first { project in project.linkDomains.contains { HostName.canonical($0) == canonical } }
    }
}

/// Host header handling shared by the link-domain routes and the doctor.
enum AppLinkHost {
    /// `host` without its port (`example.com:443` → `example.com`; `[::1]:80` → `[::1]`).
    static func name<Text: StringProtocol>(of host: Text) -> Text.SubSequence {
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return host[...] }
            return host[...close]
        }
        guard let colon = host.lastIndex(of: ":") else { return host[...] }
        return host[..<colon]
    }
}
