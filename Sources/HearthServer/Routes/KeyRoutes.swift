import HearthBase
import HearthCore
import HearthCrypto
import HearthHTTP

extension HearthApplication {
    /// Public keys and key rotation for admins:
    ///
    /// * `GET /v1/projects/{p}/jwks`: the project's keys of every purpose, as a JWKS.
    /// * `GET /robot/v1/metadata/x509/securetoken@system.gserviceaccount.com`: every project's
    ///   ID-token keys as Google publishes its own, `{kid: PEM certificate}`.
    /// * `GET /service_accounts/v1/jwk/securetoken@system.gserviceaccount.com`: the same keys as a JWKS.
    /// * `POST /hearth/v1/projects/{p}/signingKeys:rotate` with `{"purpose":"installations"|"idTokens"}`.
    ///
    /// The two Google-shaped documents answer under the `/www.googleapis.com` prefix too (a
    /// router alias), so verifiers pointed at Hearth with Google's URLs find them. The three
    /// documents come from the keys in memory, on the event thread: verifiers get them however
    /// long the database takes.
    func addKeyRoutes(to router: inout Router) {
        let documents = PublishedKeyDocuments()

        router.get("/v1/projects/{project}/jwks", on: .eventThread) { [self] request in
            let project = try projectOrNotFound(request)
            let set = try keys.publishedKeys(projectID: project.id)
            return try documents.response("jwks:\(project.id)", of: set, nowMilliseconds: clock.nowMilliseconds()) {
                JSONWebKeySet(keys: $0.keys.map(\.jwk)).jsonRepresentation
            }
        }

        router.get("/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com", on: .eventThread) { [self] _ in
            let set = try keys.publishedKeys(purpose: .idTokens)
            return try documents.response("x509", of: set, nowMilliseconds: clock.nowMilliseconds()) { set in
                var writer = JSONWriter(reservingCapacity: 16 + set.keys.count * 1_300)
                writer.beginObject()
                for key in set.keys {
                    writer.key(key.keyID)
                    writer.string(try keys.certificate(for: key))
                }
                writer.endObject()
                return writer.bytes
            }
        }

        router.get("/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com", on: .eventThread) { [self] _ in
            let set = try keys.publishedKeys(purpose: .idTokens)
            return try documents.response("jwk", of: set, nowMilliseconds: clock.nowMilliseconds()) {
                JSONWebKeySet(keys: $0.keys.map(\.jwk)).jsonRepresentation
            }
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
