import HearthBase
import HearthCore
import HearthHTTP

extension HearthApplication {
    /// What lets an installed app open a link domain's links, matched by `Host`:
    ///
    /// * `GET /.well-known/apple-app-site-association` and `GET /.well-known/assetlinks.json`:
    ///   the project's association files (`AssociationFiles`), `application/json`, 200, never a
    ///   redirect; 404 on a host that is no project's link domain.
    func addAppLinkRoutes(to router: inout Router) {
        router.get(AssociationFiles.applePath) { [self] request in
            try associationFile(request) { $0.appleAppSiteAssociation }
        }
        router.get(AssociationFiles.androidPath) { [self] request in
            try associationFile(request) { $0.assetLinks }
        }
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
