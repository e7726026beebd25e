import HearthBase
import HearthCore
import HearthCrypto
import HearthHTTP

extension HearthApplication {
    /// Public keys (`GET /v1/projects/{p}/jwks`) and key rotation for admins
    /// (`POST /hearth/v1/projects/{p}/signingKeys:rotate` with `{"purpose":"installations"|"idTokens"}`).
    func addKeyRoutes(to router: inout Router) {
        router.get("/v1/projects/{project}/jwks") { [self] request in
            let project = try projectOrNotFound(request)
            let keys = try self.keys.publishedKeys(projectID: project.id)
            var response = Response.json(bytes: JSONWebKeySet(keys: keys).jsonRepresentation)
            response.headers.set("Cache-Control", "public, max-age=300")
            return response
        }

        router.post("/hearth/v1/projects/{project}/signingKeys:rotate") { [self] request in
            let project = try projectOrNotFound(request)
            try requireAdmin(request, project: project)
            guard let name = try RequestFields(jsonBodyOf: request).string("purpose"),
                let purpose = KeyRing.Purpose(rawValue: name)
            else {
                throw GoogleAPIError.invalidArgument("purpose must be \"installations\" or \"idTokens\"")
            }
            let lifetime =
                purpose == .installations
                ? project.settings.installationTokenLifetimeSeconds : project.settings.idTokenLifetimeSeconds
            let keyID = try keys.rotate(projectID: project.id, purpose: purpose, tokenLifetimeSeconds: lifetime)
            return .json(.object(["keyId": .string(keyID), "purpose": .string(purpose.rawValue)]))
        }
    }
}
