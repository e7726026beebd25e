import HearthBase
import HearthCore
import HearthNetwork

/// `hearth doctor links`: fetches each link domain's association files as Apple's and
/// Google's verifiers do (HTTPS, no redirects followed) and says which registered apps would
/// open the domain's links, and what stops the others.
enum DoctorCommand {
    static let usage = """
          doctor links --project P [--base URL]
                                         check the app-link files of each link domain (or of
                                         the server at URL, asked with each domain as Host)
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        guard arguments.first == "links" else {
            throw UsageError("hearth doctor: say what to check: hearth doctor links --project P [--base URL]")
        }
        let parsed = try ParsedArguments(
            arguments.dropFirst(),
            command: "doctor links",
            valued: ["data", "database", "project", "base"],
            switches: []
        )
        let stored = try StoredData(parsed)
        defer { stored.close() }
        let project = try stored.project(parsed, command: "doctor links")
        let base = try parsed.value("base").map(Self.base)
        guard !project.linkDomains.isEmpty else {
            print("\(project.id) has no link domains: no app can open its links (add linkDomains to the project)")
            return 1
        }
        var allOpen = true
        for domain in project.linkDomains {
            let diagnosis = AppLinkDiagnosis(
                project: project,
                linkDomain: domain,
                apple: fetch(AssociationFiles.applePath, domain: domain, base: base),
                android: fetch(AssociationFiles.androidPath, domain: domain, base: base)
            )
            diagnosis.lines.forEach { print($0) }
            allOpen = allOpen && diagnosis.allOpen
        }
        return allOpen ? 0 : 1
    }

    /// `--base` without a trailing slash, refused unless it is an `http(s)` URL.
    private static func base(_ text: String) throws(UsageError) -> String {
        guard text.hasPrefix("http://") || text.hasPrefix("https://") else {
            throw UsageError("hearth doctor links: --base must be an http:// or https:// URL")
        }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// One file, from the domain itself or from `base` with the domain as `Host`.
    private static func fetch(_ path: String, domain: String, base: String?) -> Result<FetchedFile, DiagnosisFetchError>
    {
        let request = OutgoingRequest(
            url: (base ?? "https://\(domain)") + path,
            method: "GET",
            headers: base == nil ? [] : [("Host", domain)],
            timeoutMilliseconds: 10_000
        )
        do {
            let response = try HTTPClient.send(request)
            return .success(
                FetchedFile(
                    status: response.status,
                    contentType: response.contentType,
                    location: response.redirectLocation,
                    body: response.body
                )
            )
        } catch {
            return .failure(DiagnosisFetchError(error.description))
        }
    }
}
