public import HearthBase

/// What a send asked of the apps, carried next to `link=` in a back-to-app link
/// (`…/__/auth/links?link=<continue URL>&iosBundleId=…&androidPackageName=…`).
///
/// Nothing here is trusted: the landing page offers an app only when the hint names an app
/// registered in the project that owns the link domain, takes the App Store ID from that
/// registration, links only to the two stores' fixed hosts, and shows the minimum version
/// only when it is a plain version number. A forged hint can at most offer one of the
/// project's own apps, or hide the offer.
public struct AppLinkHints: Sendable, Equatable {
    public var iOSBundleID: String?
    public var androidPackageName: String?
    /// Whether the send asked that the Android app be installed when it is missing.
    public var androidInstallApp: Bool
    /// The oldest Android app version that can handle the link.
    public var androidMinimumVersion: String?

    public init(
        iOSBundleID: String? = nil,
        androidPackageName: String? = nil,
        androidInstallApp: Bool = false,
        androidMinimumVersion: String? = nil
    ) {
        self.iOSBundleID = iOSBundleID.flatMap { $0.isEmpty ? nil : $0 }
        self.androidPackageName = androidPackageName.flatMap { $0.isEmpty ? nil : $0 }
        self.androidInstallApp = androidInstallApp
        self.androidMinimumVersion = androidMinimumVersion.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The query parameter names, Firebase's `ActionCodeSettings` field names.
    enum Name {
        static let iOSBundleID = "iosBundleId"
        static let androidPackageName = "androidPackageName"
        static let androidInstallApp = "androidInstallApp"
        static let androidMinimumVersion = "androidMinimumVersion"
    }

    /// Reads the hints of a landing-page query.
    public init(_ query: QueryItems) {
        self.init(
            iOSBundleID: query[Name.iOSBundleID],
            androidPackageName: query[Name.androidPackageName],
            androidInstallApp: query[Name.androidInstallApp] == "true",
            androidMinimumVersion: query[Name.androidMinimumVersion]
        )
    }

    public var isEmpty: Bool { iOSBundleID == nil && androidPackageName == nil }

    /// The hints as query parameters, in a fixed order.
    var parameters: [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = []
        if let iOSBundleID { parameters.append((Name.iOSBundleID, iOSBundleID)) }
        if let androidPackageName { parameters.append((Name.androidPackageName, androidPackageName)) }
        if androidInstallApp { parameters.append((Name.androidInstallApp, "true")) }
        if let androidMinimumVersion { parameters.append((Name.androidMinimumVersion, androidMinimumVersion)) }
        return parameters
    }
}

/// The link-domain link that brings a person back to the app after an action done on the web
/// (PRODUCT.md §3.3): `https://<linkDomain>/__/auth/links?link=<continue URL>` plus the
/// send's app hints. Where the app is installed, the system opens it (the association files
/// claim the path); elsewhere the landing page forwards to the continue URL or offers the app.
public enum BackToAppLink {
    /// The link for `continueURL` on `linkDomain`.
    public static func make(continueURL: String, linkDomain: String, hints: AppLinkHints) -> String {
        var link = "https://\(linkDomain)\(AssociationFiles.claimedPath)?link="
        link += PercentEncoding.encode(continueURL, keeping: PercentEncoding.wrappedLinkCharacters)
        for parameter in hints.parameters {
            link += "&\(parameter.name)="
            link += PercentEncoding.encode(parameter.value, keeping: PercentEncoding.queryValueCharacters)
        }
        return link
    }

    /// The continue URL inside `url` when `url` is a back-to-app link on one of `linkDomains`:
    /// `https`, no user-info, no port, the landing path exactly, a `link` parameter.
    public static func payload(of url: String, linkDomains: [String]) -> String? {
        guard let parsed = try? ContinueURL(url), parsed.scheme == "https", parsed.port == nil,
            linkDomains.contains(where: { HostName.canonical($0) == parsed.host }),
            parsed.path == AssociationFiles.claimedPath
        else { return nil }
        return QueryItems(formEncoded: parsed.query)["link"]
    }
}

extension ContinueURL {
    /// The path (after the authority, before `?` or `#`), `/` when empty.
    var path: Substring {
        let afterScheme = text[text.utf8.index(text.utf8.firstIndex(of: UInt8(ascii: ":"))!, offsetBy: 3)...]
        guard
            let start = afterScheme.utf8.firstIndex(where: {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            }),
            afterScheme.utf8[start] == UInt8(ascii: "/")
        else { return "/" }
        let rest = afterScheme[start...]
        return rest[..<(rest.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex)]
    }

    /// The query (after `?`, before `#`), empty when there is none.
    var query: Substring {
        guard let mark = text.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }),
            text.utf8[mark] == UInt8(ascii: "?")
        else { return "" }
        let rest = text[text.utf8.index(after: mark)...]
        return rest[..<(rest.utf8.firstIndex(of: UInt8(ascii: "#")) ?? rest.endIndex)]
    }
}
