import HearthBase

/// One association file as a device's verifier fetched it (no redirect followed).
public struct FetchedFile: Sendable, Equatable {
    public var status: Int
    public var contentType: String?
    /// Where a redirect pointed, when the answer was one.
    public var location: String?
    public var body: [UInt8]

    public init(status: Int, contentType: String?, location: String? = nil, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.location = location
        self.body = body
    }
}

/// What `hearth doctor links` concludes for one link domain: for every registered app,
/// whether an iOS or Android device that fetched these files would let the app open
/// `https://<domain>/__/auth/links…`, and if not, why. Pure: the command fetches, this judges.
public struct AppLinkDiagnosis: Sendable {
    /// One app's conclusion.
    public struct Finding: Sendable, Equatable {
        public enum Platform: String, Sendable {
            case iOS
            case android = "Android"
        }
        public var platform: Platform
        /// `<teamID>.<bundleID>` for iOS (the bundle ID alone when the team is missing), the
        /// package name for Android.
        public var app: String
        /// Empty when the app opens the links.
        public var problems: [String]

        public var opensLinks: Bool { problems.isEmpty }
    }

    public let linkDomain: String
    public let findings: [Finding]
    /// Remarks on the domain as a whole (no app registered at all).
    public let notes: [String]

    /// Judges the files fetched from `linkDomain` against the apps `project` registers.
    /// `apple` and `android` are the fetched files, or what stopped the fetch.
    public init(
        project: Project,
        linkDomain: String,
        apple: Result<FetchedFile, DiagnosisFetchError>,
        android: Result<FetchedFile, DiagnosisFetchError>
    ) {
        self.linkDomain = linkDomain
        var notes: [String] = []
        let appleDocument = Self.document(apple, name: "apple-app-site-association")
        let androidDocument = Self.document(android, name: "assetlinks.json")
        var findings: [Finding] = []
        for app in project.apps where app.platform == .ios {
            findings.append(Self.judgeIOS(app, appleDocument))
        }
        for app in project.apps where app.platform == .android {
            findings.append(Self.judgeAndroid(app, androidDocument))
        }
        if findings.isEmpty { notes.append("the project registers no iOS or Android app, so no app opens these links") }
        self.findings = findings
        self.notes = notes
    }

    /// Whether every registered app opens the links (and there is at least one).
    public var allOpen: Bool { !findings.isEmpty && findings.allSatisfy(\.opensLinks) }

    /// The report, one line per finding, as the command prints it.
    public var lines: [String] {
        var lines = ["\(linkDomain):"]
        let link = "https://\(linkDomain)\(AssociationFiles.claimedPath)?link=…"
        for finding in findings {
            let label = "  \(finding.platform.rawValue) \(finding.app)"
            if finding.opensLinks {
                lines.append("\(label): opens \(link)")
            } else {
                lines.append("\(label): does not open \(link)")
                lines += finding.problems.map { "    - \($0)" }
            }
        }
        lines += notes.map { "  note: \($0)" }
        return lines
    }

    /// Why a file stops every app of its platform.
    struct FileProblem: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// A file's JSON, or why every app of its platform fails.
    private static func document(
        _ fetched: Result<FetchedFile, DiagnosisFetchError>,
        name: String
    ) -> Result<JSONValue, FileProblem> {
        let file: FetchedFile
        switch fetched {
        case .failure(let error): return .failure(FileProblem("\(name) could not be fetched: \(error.detail)"))
        case .success(let fetched): file = fetched
        }
        if (300..<400).contains(file.status) {
            let target = file.location.map { " to \($0)" } ?? ""
            return .failure(
                FileProblem(
                    "\(name) answered \(file.status), a redirect\(target): devices never follow redirects for this file"
                )
            )
        }
        guard file.status == 200 else {
            return .failure(
                FileProblem(
                    "\(name) answered \(file.status), not 200: is this host a link domain of the project on the server?"
                )
            )
        }
        let mediaType = file.contentType.map { $0.prefix { $0 != ";" }.trimmingASCIIWhitespace().lowercased() }
        guard mediaType == "application/json" else {
            return .failure(
                FileProblem("\(name) is served as \(file.contentType ?? "no Content-Type"), not application/json")
            )
        }
        do {
            return .success(try JSONValue.parse(file.body))
        } catch {
            return .failure(FileProblem("\(name) is not JSON: \(error)"))
        }
    }

    private static func judgeIOS(_ app: App, _ document: Result<JSONValue, FileProblem>) -> Finding {
        let bundleID = app.bundleID ?? ""
        guard let teamID = app.teamID, !teamID.isEmpty else {
            return Finding(
                platform: .iOS,
                app: bundleID,
                problems: [
                    "the project registers no team ID for \(bundleID), so no file can name the app (add its teamId)"
                ]
            )
        }
        let appID = "\(teamID).\(bundleID)"
        let file: JSONValue
        switch document {
        case .failure(let problem): return Finding(platform: .iOS, app: appID, problems: [problem.reason])
        case .success(let value): file = value
        }
        guard let details = file["applinks"]?["details"]?.arrayValue else {
            return Finding(platform: .iOS, app: appID, problems: ["the file has no applinks.details"])
        }
        let entries = details.filter { entry in
            entry["appIDs"]?.arrayValue?.contains(.string(appID)) == true || entry["appID"]?.stringValue == appID
        }
        guard !entries.isEmpty else {
            let named = details.flatMap {
                ($0["appIDs"]?.arrayValue ?? []).compactMap(\.stringValue)
                    + [$0["appID"]?.stringValue].compactMap { $0 }
            }
            let seen = named.isEmpty ? "none" : Set(named).sorted().joined(separator: ", ")
            return Finding(
                platform: .iOS,
                app: appID,
                problems: ["the file does not name \(appID) (it names \(seen)): check the team ID and bundle ID"]
            )
        }
        // iOS 13 and later read `components` where an entry has them, older systems `paths`.
        var problems: [String] = []
        let claimed = entries.contains { entry in
            if let components = entry["components"]?.arrayValue {
                return Self.componentsClaim(components, path: AssociationFiles.claimedPath)
            }
            return Self.pathsClaim(entry["paths"]?.arrayValue ?? [], path: AssociationFiles.claimedPath)
        }
        if !claimed { problems.append("no entry for \(appID) claims the path \(AssociationFiles.claimedPath)") }
        let olderClaim = entries.contains {
            Self.pathsClaim($0["paths"]?.arrayValue ?? [], path: AssociationFiles.claimedPath)
        }
        if claimed && !olderClaim {
            return Finding(
                platform: .iOS,
                app: appID,
                problems: ["iOS 12 and older would not: no \"paths\" entry claims \(AssociationFiles.claimedPath)"]
            )
        }
        return Finding(platform: .iOS, app: appID, problems: problems)
    }

    private static func judgeAndroid(_ app: App, _ document: Result<JSONValue, FileProblem>) -> Finding {
        let packageName = app.packageName ?? ""
        let file: JSONValue
        switch document {
        case .failure(let problem): return Finding(platform: .android, app: packageName, problems: [problem.reason])
        case .success(let value): file = value
        }
        guard let statements = file.arrayValue else {
            return Finding(
                platform: .android,
                app: packageName,
                problems: ["the file is not a JSON array of statements"]
            )
        }
        let mine = statements.filter { statement in
            statement["relation"]?.arrayValue?.contains(.string(AssociationFiles.androidRelation)) == true
                && statement["target"]?["namespace"]?.stringValue == "android_app"
                && statement["target"]?["package_name"]?.stringValue == packageName
        }
        guard !mine.isEmpty else {
            return Finding(
                platform: .android,
                app: packageName,
                problems: ["the file has no \(AssociationFiles.androidRelation) statement for \(packageName)"]
            )
        }
        let stated = Set(
            mine.flatMap {
                ($0["target"]?["sha256_cert_fingerprints"]?.arrayValue ?? []).compactMap {
                    $0.stringValue?.uppercased()
                }
            }
        )
        let registered = Set(app.sha256CertificateFingerprints.map { $0.uppercased() })
        if registered.isEmpty {
            return Finding(
                platform: .android,
                app: packageName,
                problems: [
                    "the project registers no SHA-256 signing-certificate fingerprint for \(packageName) (add sha256CertFingerprints)"
                ]
            )
        }
        guard !stated.isDisjoint(with: registered) else {
            let listed = stated.isEmpty ? "none" : stated.sorted().joined(separator: ", ")
            return Finding(
                platform: .android,
                app: packageName,
                problems: [
                    "fingerprint mismatch: the file states \(listed); the app is signed with \(registered.sorted().joined(separator: ", "))"
                ]
            )
        }
        return Finding(platform: .android, app: packageName, problems: [])
    }

    /// Whether Apple's `components` claim `path`: the first component whose `/` pattern
    /// matches decides, and an `exclude` component refuses.
    static func componentsClaim(_ components: [JSONValue], path: String) -> Bool {
        for component in components {
            guard let pattern = component["/"]?.stringValue, Self.glob(pattern, matches: path) else { continue }
            // A query or fragment condition other than "anything" is not one this link meets.
            if let query = component["?"], query != "*" { continue }
            if let fragment = component["#"], fragment != "*" { continue }
            return component["exclude"]?.boolValue != true
        }
        return false
    }

    /// Whether the older `paths` claim `path`: the first matching pattern decides, and one
    /// written `NOT <pattern>` refuses.
    static func pathsClaim(_ paths: [JSONValue], path: String) -> Bool {
        for entry in paths {
            guard let pattern = entry.stringValue else { continue }
            if pattern.hasPrefix("NOT ") {
                if Self.glob(String(pattern.dropFirst(4)), matches: path) { return false }
            } else if Self.glob(pattern, matches: path) {
                return true
            }
        }
        return false
    }

    /// Apple's pattern matching: `*` matches any run of characters, `?` exactly one.
    static func glob(_ pattern: String, matches text: String) -> Bool {
        let pattern = Array(pattern.utf8)
        let text = Array(text.utf8)
        var (p, t) = (0, 0)
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = p
                resume = t
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }
}

/// Why a file could not be fetched at all (the connection, TLS, a timeout).
public struct DiagnosisFetchError: Error, Sendable, Equatable {
    public let detail: String

    public init(_ detail: String) { self.detail = detail }
}
