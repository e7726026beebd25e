import HearthBase
import HearthCore
import HearthHTTP

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
            let body = try installationRequestObject(request)
            guard let appID = body.member("appId", "app_id")?.stringValue, !appID.isEmpty else {
                throw GoogleAPIError.invalidArgument("appId is required.").withoutErrorsList()
            }
            if let version = body.member("authVersion", "auth_version"), !version.isNull {
                guard version.stringValue == "FIS_v2" else {
                    throw GoogleAPIError.invalidArgument("authVersion must be FIS_v2.").withoutErrorsList()
                }
            }
            let sdkVersion = try installationString(body.member("sdkVersion", "sdk_version"), name: "sdkVersion") ?? ""
            let prepared = try answeringInstallationErrors {
                try installations.registry.prepareRegistration(
                    project: project,
                    requestedFID: body["fid"]?.stringValue,
                    appID: appID,
                    sdkVersion: sdkVersion,
                    migrationToken: request.headers["x-goog-fis-ios-iid-migration-auth"]
                        ?? request.headers["x-goog-fis-android-iid-migration-auth"]
                )
            }
            // One durable group commit; the worker thread serves others while it happens.
            let number = project.number
            return deferredWrite(prepared.write, guarded: false) { fid in
                let registration = try prepared.finish(fid)
                var writer = JSONWriter(reservingCapacity: 640)
                writer.beginObject()
                writer.key("name")
                writer.string("projects/\(number)/installations/\(registration.fid)")
                writer.key("fid")
                writer.string(registration.fid)
                writer.key("refreshToken")
                writer.string(registration.refreshToken)
                writer.key("authToken")
                Self.writeAuthToken(registration.authToken, to: &writer)
                writer.endObject()
                return .json(bytes: writer.bytes)
            }
        }

        router.post("/v1/projects/{project}/installations/{fid}/authTokens:generate") { [self] request in
            let project = try projectOrNotFound(request)
            try requireInstallationsAPIKey(request, project: project)
            let body = try installationRequestObject(request)
            var appID: String?
            var sdkVersion: String?
            if let installation = body["installation"], !installation.isNull {
                guard installation.objectValue != nil else {
                    throw GoogleAPIError.invalidArgument("installation must be an object.").withoutErrorsList()
                }
                appID = try installationString(installation.member("appId", "app_id"), name: "installation.appId")
                sdkVersion = try installationString(
                    installation.member("sdkVersion", "sdk_version"),
                    name: "installation.sdkVersion"
                )
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
            Self.writeAuthToken(token, to: &writer)
            return .json(bytes: writer.bytes)
        }

        router.delete("/v1/projects/{project}/installations/{fid}") { [self] request in
            let project = try projectOrNotFound(request)
            try requireInstallationsAPIKey(request, project: project)
            // iOS sends `{}`, Android nothing; anything sent must still be JSON.
            _ = try installationRequestObject(request)
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

    /// The body as a JSON object (an empty body is `{}`); anything else is a 400.
    func installationRequestObject(_ request: Request) throws(GoogleAPIError) -> JSONValue {
        let body: JSONValue
        do {
            body = try request.jsonBody()
        } catch {
            throw error.withoutErrorsList()
        }
        guard body.objectValue != nil else {
            throw GoogleAPIError.invalidArgument("The request body must be a JSON object.").withoutErrorsList()
        }
        return body
    }

    private func refreshTokenOrUnauthenticated(_ request: Request) throws(GoogleAPIError) -> String {
        guard let token = InstallationRefreshToken.fromAuthorization(request.headers["authorization"]) else {
            throw GoogleAPIError.unauthenticated(
                "Request is missing a valid \"Authorization: FIS_v2 <refresh token>\" header."
            ).withoutErrorsList()
        }
        return token
    }

    /// `optionalString` in the Installations API's error format (no `errors` list).
    private func installationString(_ value: JSONValue?, name: String) throws(GoogleAPIError) -> String? {
        do {
            return try optionalString(value, name: name)
        } catch {
            throw error.withoutErrorsList()
        }
    }

    private static func writeAuthToken(_ token: InstallationRegistry.IssuedToken, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("token")
        writer.string(token.token)
        writer.key("expiresIn")
        writer.string("\(token.expiresInSeconds)s")
        writer.endObject()
    }
}

extension JSONValue {
    /// The member under its camelCase name, else its snake_case one.
    func member(_ camelCase: String, _ snakeCase: String) -> JSONValue? {
        self[camelCase] ?? self[snakeCase]
    }
}
