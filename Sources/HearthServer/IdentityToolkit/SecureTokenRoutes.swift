import HearthBase
import HearthCore
import HearthHTTP
import HearthStore
import HearthWire

extension HearthApplication {
    /// `POST /v1/token` (also under `/securetoken.googleapis.com`): exchanges a refresh token
    /// for a new ID token. The body is form-encoded (JS SDK) or JSON (Apple SDK, REST
    /// libraries), with snake_case or camelCase names.
    ///
    /// This is the hot path of a signed-in app: one store read, one RS256 signature, and a
    /// response written straight into bytes.
    func addSecureTokenRoutes(to router: inout Router) {
        router.post(
            "/v1/token",
            identityToolkitForm { [self] request in
                typealias Field = RefreshTokenRequest.CodingKeys
                let project = try request.keyProject(in: projects)
                guard let grantType = try request.string(Field.grantType), !grantType.isEmpty else {
                    throw AuthError(.missingGrantType)
                }
                guard grantType == "refresh_token" else { throw AuthError(.invalidGrantType) }
                guard let refreshToken = try request.string(Field.refreshToken), !refreshToken.isEmpty else {
                    throw AuthError(.missingRefreshToken)
                }
                let (account, tokens) = try accounts.refresh(project: project, refreshToken: refreshToken)
                return .json(bytes: Self.tokenResponse(tokens, localID: account.localID, projectNumber: project.number))
            }
        )
    }

    /// The Secure Token answer: the snake_case fields Google sends, and their camelCase twins
    /// for clients that read those. `access_token` is the ID token, as in Firebase.
    static func tokenResponse(_ tokens: SessionTokens, localID: String, projectNumber: String) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 2 * tokens.idToken.utf8.count + 512)
        RefreshTokenResponse(
            accessToken: tokens.idToken,
            expiresIn: String(tokens.expiresInSeconds),
            refreshToken: tokens.refreshToken,
            idToken: tokens.idToken,
            userID: localID,
            projectID: projectNumber
        ).write(to: &writer)
        return writer.bytes
    }

    /// Like ``identityToolkit(_:)``, for a body that may be form-encoded: a form's items are
    /// string fields, read with the same lenient names as JSON ones.
    func identityToolkitForm(_ body: @escaping @Sendable (IdentityToolkitRequest) throws -> Response) -> Router.Handler
    {
        { request in
            do {
                if Self.isFormEncoded(request) {
                    return try body(IdentityToolkitRequest(request, fields: RequestFields(form: request.formItems)))
                }
                return try body(IdentityToolkitRequest(request))
            } catch let error as AuthError {
                return error.envelope.response()
            }
        }
    }

    /// A form body by its `Content-Type`, or, when that says nothing useful, by not looking
    /// like a JSON object.
    private static func isFormEncoded(_ request: Request) -> Bool {
        let type = request.headers["content-type"]?.lowercased() ?? ""
        if type.hasPrefix("application/x-www-form-urlencoded") { return true }
        if type.contains("json") { return false }
        let first = request.body.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        return first != nil && first != UInt8(ascii: "{")
    }
}
