import HearthBase
import HearthCore
import HearthHTTP
import HearthWire

/// Firebase Installations v1, as the JS, iOS and Android SDKs call it (also under
/// `/firebaseinstallations.googleapis.com`, with or without a trailing slash; `{project}` is
/// the project ID or number):
///
/// * `POST /v1/projects/{p}/installations` — register; answers exactly 200. A client migrating
///   from Instance ID sends its legacy ID as `fid` with its IID token in
///   `x-goog-fis-ios-iid-migration-auth` or `x-goog-fis-android-iid-migration-auth`.
/// * `POST /v1/projects/{p}/installations/{fid}/authTokens:generate` — a new auth token.
/// * `DELETE /v1/projects/{p}/installations/{fid}` — delete; answers exactly 200 `{}`.
///
/// Every call carries the project's API key (`x-goog-api-key` or `key=`); the last two are
/// authorised by `Authorization: FIS_v2 <refreshToken>`.
extension HearthApplication {
    func addInstallationRoutes(to router: inout Router) {
        router.post("/v1/projects/{project}/installations") { [self] request in
            let project = try projectOrNotFound(request)
            try requireInstallationsAPIKey(request, project: project)
            let (appID, sdkVersion, requestedFID) = try withoutErrorsList { () throws(GoogleAPIError) in
                typealias Field = CreateInstallationRequest.CodingKeys
                let fields = try RequestFields(jsonBodyOf: request)
                guard let appID = try fields.string(Field.appID), !appID.isEmpty else {
                    throw GoogleAPIError.invalidArgument("appId is required.")
                }
                if let version = try fields.string(Field.authVersion), version != FISAuthorization.scheme {
                    throw GoogleAPIError.invalidArgument("authVersion must be FIS_v2.")
                }
                return (appID, try fields.string(Field.sdkVersion) ?? "", try fields.string(Field.fid))
            }
            let registration = try answeringInstallationErrors {
                try installations.registry.registration(
                    project: project,
                    requestedFID: requestedFID,
                    appID: appID,
                    sdkVersion: sdkVersion,
                    migrationToken: request.headers["x-goog-fis-ios-iid-migration-auth"]
                        ?? request.headers["x-goog-fis-android-iid-migration-auth"]
                )
            }
            // One durable group commit; the worker thread serves others while it happens.
            let number = project.number
            return deferredWrite(registration) { registration in
                var writer = JSONWriter(reservingCapacity: 640)
                CreateInstallationResponse(
                    name: "projects/\(number)/installations/\(registration.fid)",
                    fid: registration.fid,
                    refreshToken: registration.refreshToken,
                    authToken: registration.authToken.wire
                ).write(to: &writer)
                return .json(bytes: writer.bytes)
            }
        }

        router.post("/v1/projects/{project}/installations/{fid}/authTokens:generate") { [self] request in
            let project = try projectOrNotFound(request)
            try requireInstallationsAPIKey(request, project: project)
            let (appID, sdkVersion) = try withoutErrorsList { () throws(GoogleAPIError) in
                typealias Field = GenerateAuthTokenRequest.Installation.CodingKeys
                let installation = try RequestFields(jsonBodyOf: request)
                    .object(GenerateAuthTokenRequest.CodingKeys.installation)
                return (try installation?.string(Field.appID), try installation?.string(Field.sdkVersion))
            }
            let refreshToken = try refreshTokenOrUnauthenticated(request)
            let token = try answeringInstallationErrors {
                try installations.registry.generateToken(
                    project: project,
                    fid: request.pathParameters["fid"] ?? "",
                    refreshToken: refreshToken,
                    appID: appID.flatMap { $0.isEmpty ? nil : $0 },
                    sdkVersion: sdkVersion
                )
            }
            var writer = JSONWriter(reservingCapacity: 480)
            token.wire.write(to: &writer)
            return .json(bytes: writer.bytes)
        }

        router.delete("/v1/projects/{project}/installations/{fid}") { [self] request in
            let project = try projectOrNotFound(request)
            try requireInstallationsAPIKey(request, project: project)
            // iOS sends `{}`, Android nothing; anything sent must still be JSON.
            _ = try withoutErrorsList { () throws(GoogleAPIError) in try RequestFields(jsonBodyOf: request) }
            let refreshToken = try refreshTokenOrUnauthenticated(request)
            try answeringInstallationErrors {
                try installations.registry.delete(
                    project: project,
                    fid: request.pathParameters["fid"] ?? "",
                    refreshToken: refreshToken
                )
            }
            return .json(bytes: Array("{}".utf8))
        }

        addInstallationAdminRoutes(to: &router)
    }

    /// The API key must be one of the project's: missing → 403, unknown → 400 (Google's
    /// answers), another project's → 403.
    func requireInstallationsAPIKey(_ request: Request, project: Project) throws(GoogleAPIError) {
        guard let key = request.headers["x-goog-api-key"] ?? request.query["key"], !key.isEmpty else {
            throw GoogleAPIError.permissionDenied("The request is missing a valid API key.").withoutErrorsList()
        }
        guard project.hasAPIKey(key) else {
            if projects.project(apiKey: key) != nil {
                throw GoogleAPIError.permissionDenied("The API key does not belong to this project.")
                    .withoutErrorsList()
            }
            throw GoogleAPIError.invalidArgument("API key not valid. Please pass a valid API key.").withoutErrorsList()
        }
    }

    /// Runs `body`, its errors in the Installations API's format (no `errors` list).
    func withoutErrorsList<Value>(_ body: () throws(GoogleAPIError) -> Value) throws(GoogleAPIError) -> Value {
        do {
            return try body()
        } catch {
            throw error.withoutErrorsList()
        }
    }

    private func refreshTokenOrUnauthenticated(_ request: Request) throws(GoogleAPIError) -> String {
        guard let token = InstallationRefreshToken.fromAuthorization(request.headers["authorization"]) else {
            throw GoogleAPIError.unauthenticated(
                "Request is missing a valid \"Authorization: FIS_v2 <refresh token>\" header."
            ).withoutErrorsList()
        }
        return token
    }
}

extension InstallationRegistry.IssuedToken {
    /// The token as the wire answers it.
    var wire: InstallationAuthToken {
        InstallationAuthToken(token: token, expiresIn: WireDuration.string(seconds: expiresInSeconds))
    }
}
