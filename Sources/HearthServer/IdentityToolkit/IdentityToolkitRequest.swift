import HearthBase
import HearthCore
import HearthHTTP

/// An Identity Toolkit request: its fields, read leniently (``RequestFields``: any mix of
/// camelCase and snake_case, `null` as absent, enums by name or number), from the JSON body
/// or, for `GET` calls, the query string; and its caller's API key and authorization.
struct IdentityToolkitRequest: Sendable {
    let request: Request
    let fields: RequestFields

    init(_ request: Request) throws(GoogleAPIError) {
        self.init(request, fields: RequestFields(try RequestFields.bodyObject(of: request), query: request.query))
    }

    /// A request whose fields come from elsewhere (a form body, a test).
    init(_ request: Request, fields: RequestFields) {
        self.request = request
        self.fields = fields
    }

    // MARK: - Authentication

    /// The API key from `?key=` or the `x-goog-api-key` header.
    var apiKey: String? {
        if let key = request.query["key"], !key.isEmpty { return key }
        if let key = request.headers["x-goog-api-key"], !key.isEmpty { return key }
        return nil
    }

    /// The `Authorization` header when it uses the `Bearer` scheme (other schemes are ignored,
    /// as the Firebase emulator ignores them).
    var bearerAuthorization: String? {
        guard let value = request.headers["authorization"] else { return nil }
        let scheme = value.prefix { $0 != " " }
        return scheme.lowercased() == "bearer" ? value : nil
    }

    // MARK: - Fields (read through ``fields``)

    func has(_ name: String) -> Bool { fields.has(name) }
    func string(_ name: String) throws(GoogleAPIError) -> String? { try fields.string(name) }
    func bool(_ name: String) throws(GoogleAPIError) -> Bool? { try fields.bool(name) }
    func int64(_ name: String) throws(GoogleAPIError) -> Int64? { try fields.int64(name) }
    func strings(_ name: String) throws(GoogleAPIError) -> [String] { try fields.strings(name) }
    func enumValue(_ name: String, cases: [String]) throws(GoogleAPIError) -> String? {
        try fields.enumValue(name, cases: cases)
    }
    func enumValues(_ name: String, cases: [String]) throws(GoogleAPIError) -> [String] {
        try fields.enumValues(name, cases: cases)
    }

    // The same, for a field named by a HearthWire type's `CodingKeys` (the shapes the SDKs
    // send), read as leniently.

    func has(_ key: some CodingKey) -> Bool { has(key.stringValue) }
    func string(_ key: some CodingKey) throws(GoogleAPIError) -> String? { try string(key.stringValue) }
    func bool(_ key: some CodingKey) throws(GoogleAPIError) -> Bool? { try bool(key.stringValue) }
    func int64(_ key: some CodingKey) throws(GoogleAPIError) -> Int64? { try int64(key.stringValue) }
    func strings(_ key: some CodingKey) throws(GoogleAPIError) -> [String] { try strings(key.stringValue) }
    func enumValue(_ key: some CodingKey, cases: [String]) throws(GoogleAPIError) -> String? {
        try enumValue(key.stringValue, cases: cases)
    }
    func enumValues(_ key: some CodingKey, cases: [String]) throws(GoogleAPIError) -> [String] {
        try enumValues(key.stringValue, cases: cases)
    }
}

extension IdentityToolkitRequest {
    /// The project whose API key the request carries: 403 when there is none (as Google
    /// answers unidentified callers), `API_KEY_INVALID` when it is unknown.
    func keyProject(in projects: ProjectDirectory) throws -> Project {
        guard let key = apiKey else {
            throw GoogleAPIError(
                code: .forbidden,
                message: "The request is missing a valid API key.",
                status: .permissionDenied
            )
        }
        guard let project = projects.project(apiKey: key) else {
            throw AuthError(.apiKeyInvalid, "API key not valid. Please pass a valid API key.")
        }
        return project
    }
}
