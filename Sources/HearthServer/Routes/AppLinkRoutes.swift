import HearthBase
import HearthCore
import HearthHTTP

extension HearthApplication {
    /// What lets an installed app open a link domain's links, matched by `Host`:
    ///
    /// * `GET /.well-known/apple-app-site-association` and `GET /.well-known/assetlinks.json`:
    ///   the project's association files (`AssociationFiles`), `application/json`, 200, never a
    ///   redirect; 404 on a host that is no project's link domain.
    /// * `GET /__/auth/links?link=…`: the landing page a browser shows when no app took the
    ///   link (`LinkLandingPolicy`): 302 to an accepted payload, a page offering the app it
    ///   was sent for, or a 400 page that names nothing of a refused payload. On a host that
    ///   is no link domain (the public host, for local use) every project is asked in turn.
    func addAppLinkRoutes(to router: inout Router) {
        router.get(AssociationFiles.claimedPath, on: .eventThread) { [self] request in
            linkLandingPage(request)
        }
        router.get(AssociationFiles.applePath, on: .eventThread) { [self] request in
            try associationFile(request) { $0.appleAppSiteAssociation }
        }
        router.get(AssociationFiles.androidPath, on: .eventThread) { [self] request in
            try associationFile(request) { $0.assetLinks }
        }
    }

    private func linkLandingPage(_ request: Request) -> Response {
        let owner = request.headers["host"].flatMap { projects.project(linkDomain: $0) }
        let candidates = owner.map { [$0] } ?? projects.all
        let payload = request.query["link"]
        let hints = AppLinkHints(request.query)
        // The first project that accepts the payload decides; when none does, the last one's
        // refusal (the owner's, when the host is a link domain).
        let decisions = candidates.lazy.map { candidate in
            (
                candidate,
                LinkLandingPolicy(project: candidate, publicURL: self.publicURL).decide(payload: payload, hints: hints)
            )
        }
        let (project, landing): (Project?, LinkLanding) =
            decisions.first { if case .refuse = $0.1 { false } else { true } }
            ?? (candidates.last, decisions.last?.1 ?? .refuse(.foreign))
        if case .forward(let location) = landing { return PageHeaders.redirect(to: location, status: .found) }
        let language = PageLanguage.choose(
            requested: request.query["lang"],
            acceptLanguage: request.headers["accept-language"],
            projectDefault: project?.settings.defaultLanguage
        )
        let text = LinkPageText.copy[language]
        let branding = owner.map { PageBranding(project: $0) }
        guard case .offer(let offer) = landing else {
            return HostedPage(
                page: "links",
                outcome: "refused",
                language: language,
                branding: branding,
                heading: text.refusedHeading,
                message: PageHTML.fill(text.refusedMessage),
                isProblem: true,
                status: .badRequest
            ).response()
        }
        var links = [PageHTML.link(id: "open-link", href: offer.openLink, label: text.openLink)]
        if let store = offer.appStoreURL {
            links.append(PageHTML.link(id: "app-store", href: store, label: text.appStore))
        }
        if let store = offer.playStoreURL {
            links.append(PageHTML.link(id: "play-store", href: store, label: text.playStore))
        }
        var content = links.map { "<p>\($0)</p>\n" }.joined()
        if let version = offer.androidMinimumVersion {
            content += "<p>\(PageHTML.fill(text.minimumVersion, ["version": HTMLText.escape(version)]))</p>\n"
        }
        return HostedPage(
            page: "links",
            outcome: "offer",
            language: language,
            branding: project.map { PageBranding(project: $0) },
            heading: text.offerHeading,
            message: PageHTML.fill(text.offerMessage),
            content: content
        ).response()
    }

    private func associationFile(
        _ request: Request,
        _ document: (AssociationFiles) -> JSONValue
    ) throws(GoogleAPIError) -> Response {
        guard let host = request.headers["host"], let project = projects.project(linkDomain: host) else {
            throw GoogleAPIError.notFound("This host is not a link domain of any project.")
        }
        // Apple's CDN and Android's verifier want exactly `application/json`, and fetch again
        // on their own schedule; a short public cache spares the server their retries.
        return Response(
            status: .ok,
            headers: ["Content-Type": "application/json", "Cache-Control": "public, max-age=300"],
            body: document(AssociationFiles(project: project)).serialized()
        )
    }
}
