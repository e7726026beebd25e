import HearthBase
import HearthHTTP
import HearthWire

/// The OpenAPI 3.0 description of every route Hearth serves, served at `GET /openapi.json`
/// and checked in as `docs/openapi.json`.
///
/// `APIDescriptionTests` keeps it in step: every route the router registers is described and
/// every described path is served, each schema named after a HearthWire type round-trips
/// through that type with exactly the described property names, and the checked-in file
/// equals this document. Request bodies are described as clients send them; Hearth also
/// accepts more (unknown fields are ignored), and the fuzzing in the test command sends
/// anything.
enum APIDescription {
    /// The document as served.
    static let document: JSONValue = [
        "openapi": "3.0.3",
        "info": [
            "title": "Hearth",
            "version": "1",
            "description": .string(
                "A self-hosted backend that speaks the Firebase Authentication (Identity Toolkit v1 and legacy v3, "
                    + "Secure Token) and Installations wire protocols, with its own administration and development routes. "
                    + "Errors answer in Google's JSON error envelope; the hosted pages answer HTML."
            ),
        ],
        "servers": [["url": "/"]],
        "tags": .array(
            [
                ("identitytoolkit", "Firebase Authentication: accounts, sign-in and email actions"),
                ("identitytoolkit-v3", "The legacy v3 relyingparty names of the same methods (Apple and Android SDKs)"),
                ("securetoken", "Refresh tokens for ID tokens"),
                ("installations", "Firebase Installations and the Instance ID admin call"),
                ("keys", "Published signing keys and their rotation"),
                ("mail", "The outbox and the email templates"),
                ("development", "Emulator routes of the development seed"),
                ("hearth", "Health, this description, app links and hosted pages"),
            ].map { ["name": .string($0.0), "description": .string($0.1)] }
        ),
        "paths": .object(JSONObject(paths)),
        "components": [
            "securitySchemes": [
                "apiKey": ["type": "apiKey", "in": "query", "name": "key"],
                "apiKeyHeader": ["type": "apiKey", "in": "header", "name": "x-goog-api-key"],
                "admin": [
                    "type": "http", "scheme": "bearer",
                    "description":
                        "An admin credential of the project (or a Google OAuth2 access token in front of it).",
                ],
            ],
            "schemas": .object(JSONObject(schemas)),
        ],
    ]

    /// The served answer, built once.
    static let response = Response.json(bytes: document.serialized()).fixed()

    // MARK: Paths

    /// The Identity Toolkit methods: (v1 method, HTTP methods, project-scoped, request schema,
    /// response schema, summary). Mirrors ``IdentityToolkitEndpoints`` registrations.
    private static let identityToolkitMethods:
        [(method: String, http: [String], scoped: Bool, request: JSONValue?, response: JSONValue, summary: String)] = [
            ("accounts:signUp", ["post"], true, ref("SignUpRequest"), ref("SignInResponse"), "Create an account"),
            (
                "accounts:signInWithPassword", ["post"], false, ref("SignInWithPasswordRequest"), ref("SignInResponse"),
                "Sign in with email and password"
            ),
            ("accounts:lookup", ["post"], true, ref("LookupRequest"), ref("LookupResponse"), "Read accounts"),
            (
                "accounts:update", ["post"], true, ref("UpdateAccountRequest"), ref("UpdateAccountResponse"),
                "Change an account, or apply an email action code"
            ),
            (
                "accounts:delete", ["post"], true, ref("DeleteAccountRequest"), ref("DeleteAccountResponse"),
                "Delete an account"
            ),
            (
                "accounts:createAuthUri", ["post"], false,
                object(["identifier": string, "continueUri": string, "providerId": string]),
                object([
                    "kind": string, "registered": boolean, "allProviders": array(string),
                    "signinMethods": array(string),
                ]),
                "The sign-in methods of an email address"
            ),
            (
                "projects", ["get", "post"], false, nil, ref("ProjectConfigResponse"),
                "The project's public configuration"
            ),
            (
                "accounts:sendVerificationCode", ["post"], false,
                object(["phoneNumber": string, "recaptchaToken": string]), object([:]),
                "Phone sign-in: refused (Hearth sends no SMS)"
            ),
            (
                "accounts:signInWithPhoneNumber", ["post"], false, object(["sessionInfo": string, "code": string]),
                object([:]), "Phone sign-in: refused (Hearth sends no SMS)"
            ),
            (
                "accounts", ["post"], true, ref("CreateAccountRequest"), object(["kind": string, "localId": string]),
                "Create an account as an admin"
            ),
            (
                "accounts:batchGet", ["get"], true, nil, ref("BatchGetAccountsResponse"),
                "List accounts, a page at a time"
            ),
            (
                "accounts:batchDelete", ["post"], true, object(["localIds": array(string), "force": boolean]),
                object(["errors": array(object(["index": integer, "localId": string, "message": string]))]),
                "Delete accounts"
            ),
            (
                "accounts:sendOobCode", ["post"], true, ref("SendOobCodeRequest"), ref("SendOobCodeResponse"),
                "Send or make an email action code"
            ),
            (
                "accounts:resetPassword", ["post"], false, ref("ResetPasswordRequest"), ref("ResetPasswordResponse"),
                "Check or apply a password reset code"
            ),
            (
                "accounts:signInWithEmailLink", ["post"], false, ref("SignInWithEmailLinkRequest"),
                ref("SignInResponse"),
                "Sign in with an email link's code"
            ),
        ]

    /// Every path and its operations.
    private static var paths: [(String, JSONValue)] {
        var paths: [(String, JSONValue)] = []
        let clientSecurity: JSONValue = [["apiKey": []], ["apiKeyHeader": []], ["admin": []]]
        let adminSecurity: JSONValue = [["admin": []]]
        for method in identityToolkitMethods {
            let batchGetQuery: [JSONValue] =
                method.method == "accounts:batchGet"
                ? [query("maxResults", integer), query("nextPageToken", string)] : []
            var operations: [(String, JSONValue)] = []
            for http in method.http {
                operations.append(
                    (
                        http,
                        operation(
                            id: "\(method.method).\(http)",
                            tag: "identitytoolkit",
                            summary: method.summary,
                            security: clientSecurity,
                            parameters: batchGetQuery,
                            body: http == "get" ? nil : method.request,
                            response: method.response,
                            links: links(after: method.method)
                        )
                    )
                )
            }
            paths.append(("/v1/\(method.method)", .object(JSONObject(operations))))
            if method.scoped {
                let scoped = operations.map { http, operation in
                    var operation = operation.objectValue ?? JSONObject()
                    operation["operationId"] = .string("projects.\(method.method).\(http)")
                    operation["parameters"] = .array([projectParameter] + batchGetQuery)
                    operation["security"] = adminSecurity
                    // An admin's call answers no tokens: nothing to link from.
                    if var responses = operation["responses"]?.objectValue,
                        var success = responses["200"]?.objectValue
                    {
                        success["links"] = nil
                        responses["200"] = .object(success)
                        operation["responses"] = .object(responses)
                    }
                    return (http, JSONValue.object(operation))
                }
                paths.append(("/v1/projects/{project}/\(method.method)", .object(JSONObject(scoped))))
            }
        }
        for (legacy, method) in IdentityToolkitEndpoints.legacyNames.sorted(by: { $0.key < $1.key }) {
            guard let served = identityToolkitMethods.first(where: { $0.method == method }) else { continue }
            var operations: [(String, JSONValue)] = [
                (
                    "post",
                    operation(
                        id: "v3.\(legacy)",
                        tag: "identitytoolkit-v3",
                        summary: "\(served.summary) (v1 \(method))",
                        security: clientSecurity,
                        body: served.request ?? object([:]),
                        response: served.response
                    )
                )
            ]
            if served.http.contains("get") {
                operations.insert(
                    (
                        "get",
                        operation(
                            id: "v3.\(legacy).get",
                            tag: "identitytoolkit-v3",
                            summary: "\(served.summary) (v1 \(method))",
                            security: clientSecurity,
                            response: served.response
                        )
                    ),
                    at: 0
                )
            }
            paths.append(("/identitytoolkit/v3/relyingparty/\(legacy)", .object(JSONObject(operations))))
        }
        paths.append(
            (
                "/v1/token",
                [
                    "post": operation(
                        id: "token",
                        tag: "securetoken",
                        summary: "Exchange a refresh token for a new ID token",
                        security: [["apiKey": []], ["apiKeyHeader": []]],
                        body: ref("RefreshTokenRequest"),
                        formBody: true,
                        response: ref("RefreshTokenResponse")
                    )
                ]
            )
        )
        paths += installationPaths + keyPaths + mailPaths + hearthPaths
        return paths
    }

    private static let fidParameter = pathParameter("fid")
    private static let installationAuthorization: JSONValue = [
        "name": "Authorization", "in": "header", "required": true,
        "description": "FIS_v2 followed by the installation's refresh token",
        "schema": ["type": "string", "example": "FIS_v2 refresh-token"],
    ]

    private static var installationPaths: [(String, JSONValue)] {
        let admin: JSONValue = [["admin": []]]
        let page = [query("pageSize", integer), query("pageToken", string)]
        return [
            (
                "/v1/projects/{project}/installations",
                [
                    "post": operation(
                        id: "installations.create",
                        tag: "installations",
                        summary: "Register an installation",
                        security: [["apiKeyHeader": []]],
                        parameters: [projectParameter],
                        body: ref("CreateInstallationRequest"),
                        response: ref("CreateInstallationResponse"),
                        links: [
                            "generateAuthToken": [
                                "operationId": "installations.generateAuthToken",
                                "parameters": [
                                    "project": "$request.path.project", "fid": "$response.body#/fid",
                                    "header.Authorization": "FIS_v2 {$response.body#/refreshToken}",
                                ],
                            ],
                            "delete": [
                                "operationId": "installations.delete",
                                "parameters": [
                                    "project": "$request.path.project", "fid": "$response.body#/fid",
                                    "header.Authorization": "FIS_v2 {$response.body#/refreshToken}",
                                ],
                            ],
                            "verifyToken": [
                                "operationId": "installations.verifyToken",
                                "parameters": ["project": "$request.path.project"],
                                "requestBody": ["token": "$response.body#/authToken/token"],
                            ],
                        ]
                    )
                ]
            ),
            (
                "/v1/projects/{project}/installations/{fid}/authTokens:generate",
                [
                    "post": operation(
                        id: "installations.generateAuthToken",
                        tag: "installations",
                        summary: "A new auth token for an installation",
                        security: [["apiKeyHeader": []]],
                        parameters: [projectParameter, fidParameter, installationAuthorization],
                        body: ref("GenerateAuthTokenRequest"),
                        response: ref("InstallationAuthToken")
                    )
                ]
            ),
            (
                "/v1/projects/{project}/installations/{fid}",
                [
                    "delete": operation(
                        id: "installations.delete",
                        tag: "installations",
                        summary: "Delete an installation",
                        security: [["apiKeyHeader": []]],
                        parameters: [projectParameter, fidParameter, installationAuthorization],
                        response: object([:])
                    )
                ]
            ),
            (
                "/v1/projects/{project}/installations:verifyToken",
                [
                    "post": operation(
                        id: "installations.verifyToken",
                        tag: "installations",
                        summary: "Check an installation auth token (Admin SDKs)",
                        security: admin,
                        parameters: [projectParameter],
                        body: ref("VerifyInstallationTokenRequest"),
                        response: ref("VerifyInstallationTokenResponse")
                    )
                ]
            ),
            (
                "/v1/project/{project}/instanceId/{fid}",
                [
                    "delete": operation(
                        id: "instanceId.delete",
                        tag: "installations",
                        summary: "Delete an installation by its Instance ID (Admin SDKs)",
                        security: admin,
                        parameters: [projectParameter, fidParameter],
                        response: object([:])
                    )
                ]
            ),
            (
                "/hearth/v1/projects/{project}/installations",
                [
                    "get": operation(
                        id: "hearth.installations.list",
                        tag: "installations",
                        summary: "List installations",
                        security: admin,
                        parameters: [projectParameter] + page,
                        response: anyObject
                    )
                ]
            ),
            (
                "/hearth/v1/projects/{project}/installations/{fid}",
                [
                    "get": operation(
                        id: "hearth.installations.get",
                        tag: "installations",
                        summary: "Read an installation",
                        security: admin,
                        parameters: [projectParameter, fidParameter],
                        response: anyObject
                    )
                ]
            ),
            (
                "/hearth/v1/projects/{project}/installationTombstones",
                [
                    "get": operation(
                        id: "hearth.installationTombstones.list",
                        tag: "installations",
                        summary: "List deleted installations",
                        security: admin,
                        parameters: [projectParameter] + page,
                        response: anyObject
                    )
                ]
            ),
            (
                "/hearth/v1/projects/{project}/installationDeliveries",
                [
                    "get": operation(
                        id: "hearth.installationDeliveries.list",
                        tag: "installations",
                        summary: "List webhook deliveries",
                        security: admin,
                        parameters: [projectParameter] + page + [query("state", string)],
                        response: anyObject
                    )
                ]
            ),
            (
                "/hearth/v1/projects/{project}/installationWebhooks",
                [
                    "post": operation(
                        id: "hearth.installationWebhooks.create",
                        tag: "installations",
                        summary: "Subscribe a webhook to installation changes",
                        security: admin,
                        parameters: [projectParameter],
                        body: object(["url": string, "description": string, "secret": string], required: ["url"]),
                        response: object(["webhookId": string, "url": string, "description": string, "secret": string])
                    ),
                    "get": operation(
                        id: "hearth.installationWebhooks.list",
                        tag: "installations",
                        summary: "List webhooks",
                        security: admin,
                        parameters: [projectParameter],
                        response: anyObject
                    ),
                ]
            ),
            (
                "/hearth/v1/projects/{project}/installationWebhooks/{webhook}",
                [
                    "delete": operation(
                        id: "hearth.installationWebhooks.delete",
                        tag: "installations",
                        summary: "Remove a webhook",
                        security: admin,
                        parameters: [projectParameter, pathParameter("webhook")],
                        response: object([:])
                    )
                ]
            ),
        ]
    }

    private static var keyPaths: [(String, JSONValue)] {
        [
            (
                "/v1/projects/{project}/jwks",
                [
                    "get": operation(
                        id: "keys.jwks",
                        tag: "keys",
                        summary: "The project's public keys of every purpose",
                        parameters: [projectParameter],
                        response: ref("JWKSet")
                    )
                ]
            ),
            (
                "/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com",
                [
                    "get": operation(
                        id: "keys.x509",
                        tag: "keys",
                        summary: "ID-token keys as X.509 certificates, by key ID",
                        response: ["type": "object", "additionalProperties": string]
                    )
                ]
            ),
            (
                "/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com",
                [
                    "get": operation(
                        id: "keys.jwk",
                        tag: "keys",
                        summary: "ID-token keys as a JWKS",
                        response: ref("JWKSet")
                    )
                ]
            ),
            (
                "/hearth/v1/projects/{project}/signingKeys:rotate",
                [
                    "post": operation(
                        id: "keys.rotate",
                        tag: "keys",
                        summary: "Rotate a signing key",
                        security: [["admin": []]],
                        parameters: [projectParameter],
                        body: object(
                            ["purpose": ["type": "string", "enum": ["installations", "idTokens"]]],
                            required: ["purpose"]
                        ),
                        response: object(["keyId": string, "purpose": string])
                    )
                ]
            ),
        ]
    }

    private static var mailPaths: [(String, JSONValue)] {
        let admin: JSONValue = [["admin": []]]
        let template = [projectParameter, pathParameter("kind"), pathParameter("language")]
        return [
            (
                "/hearth/v1/projects/{project}/mail/messages",
                [
                    "get": operation(
                        id: "mail.messages.list",
                        tag: "mail",
                        summary: "The outbox, newest first",
                        security: admin,
                        parameters: [projectParameter, query("pageSize", integer), query("pageToken", string)],
                        response: anyObject
                    )
                ]
            ),
            (
                "/hearth/v1/projects/{project}/mail/messages/{id}",
                [
                    "get": operation(
                        id: "mail.messages.get",
                        tag: "mail",
                        summary: "One message and its delivery",
                        security: admin,
                        parameters: [projectParameter, pathParameter("id")],
                        response: anyObject
                    )
                ]
            ),
            (
                "/hearth/v1/projects/{project}/mail:sendTest",
                [
                    "post": operation(
                        id: "mail.sendTest",
                        tag: "mail",
                        summary: "Send a test message",
                        security: admin,
                        parameters: [projectParameter],
                        body: object(["to": string, "kind": string, "languageCode": string], required: ["to"]),
                        response: object(["id": string])
                    )
                ]
            ),
            (
                "/hearth/v1/projects/{project}/mail/templates/{kind}/{language}",
                [
                    "get": operation(
                        id: "mail.templates.get",
                        tag: "mail",
                        summary: "A template in force",
                        security: admin,
                        parameters: template,
                        response: anyObject
                    ),
                    "put": operation(
                        id: "mail.templates.put",
                        tag: "mail",
                        summary: "Replace a template",
                        security: admin,
                        parameters: template,
                        body: object(["subject": string, "text": string, "html": string]),
                        response: anyObject
                    ),
                    "delete": operation(
                        id: "mail.templates.delete",
                        tag: "mail",
                        summary: "Go back to the built-in template",
                        security: admin,
                        parameters: template,
                        response: anyObject
                    ),
                ]
            ),
            (
                "/emulator/v1/projects/{project}/oobCodes",
                [
                    "get": operation(
                        id: "emulator.oobCodes",
                        tag: "development",
                        summary: "The email action codes sent for the development project",
                        parameters: [projectParameter],
                        response: ref("DevelopmentOobCodesResponse")
                    )
                ]
            ),
        ]
    }

    private static var hearthPaths: [(String, JSONValue)] {
        let clock = object(["nowMillis": string, "offsetMillis": string])
        let actionFields: [JSONValue] = ["mode", "oobCode", "apiKey", "continueUrl", "lang"].map { query($0, string) }
        return [
            (
                "/healthz",
                ["get": operation(id: "healthz", tag: "hearth", summary: "Ready", response: object(["ok": boolean]))]
            ),
            (
                "/openapi.json",
                ["get": operation(id: "openapi", tag: "hearth", summary: "This description", response: anyObject)]
            ),
            (
                "/emulator/v1/clock",
                [
                    "get": operation(
                        id: "emulator.clock.get",
                        tag: "development",
                        summary: "The server's time (only with hearth serve --test-clock)",
                        response: clock
                    ),
                    "post": operation(
                        id: "emulator.clock.advance",
                        tag: "development",
                        summary: "Move the server's time forward (only with hearth serve --test-clock)",
                        body: object(["advanceSeconds": integer], required: ["advanceSeconds"]),
                        response: clock
                    ),
                ]
            ),
            (
                "/.well-known/apple-app-site-association",
                [
                    "get": operation(
                        id: "appLinks.apple",
                        tag: "hearth",
                        summary: "The link domain's Apple association file",
                        response: anyObject
                    )
                ]
            ),
            (
                "/.well-known/assetlinks.json",
                [
                    "get": operation(
                        id: "appLinks.android",
                        tag: "hearth",
                        summary: "The link domain's Android asset links",
                        response: ["type": "array", "items": anyObject]
                    )
                ]
            ),
            (
                "/__/auth/links",
                [
                    "get": page(
                        id: "appLinks.landing",
                        summary: "The landing page of a link no app took",
                        parameters: [query("link", string)]
                    )
                ]
            ),
            (
                "/__/auth/action",
                [
                    "get": page(
                        id: "actionPage.show",
                        summary: "The hosted page of an email action link",
                        parameters: actionFields
                    ),
                    "post": page(
                        id: "actionPage.submit",
                        summary: "The hosted page's form",
                        form: object(
                            [
                                "mode": string, "oobCode": string, "apiKey": string, "continueUrl": string,
                                "lang": string,
                                "csrf": string, "newPassword": string, "confirmPassword": string,
                            ]
                        )
                    ),
                ]
            ),
        ]
    }

    /// After these Identity Toolkit methods, the answer's ID token or account ID feeds others
    /// (OpenAPI links, which stateful fuzzing follows).
    private static func links(after method: String) -> JSONValue? {
        guard ["accounts:signUp", "accounts:signInWithPassword", "accounts:signInWithEmailLink"].contains(method)
        else { return nil }
        let idToken: JSONValue = ["idToken": "$response.body#/idToken"]
        return [
            "lookup": ["operationId": "accounts:lookup.post", "requestBody": idToken],
            "update": [
                "operationId": "accounts:update.post",
                "requestBody": ["idToken": "$response.body#/idToken", "displayName": "Linked"],
            ],
            "sendVerifyEmail": [
                "operationId": "accounts:sendOobCode.post",
                "requestBody": ["requestType": "VERIFY_EMAIL", "idToken": "$response.body#/idToken"],
            ],
            "refresh": [
                "operationId": "token",
                "requestBody": ["grant_type": "refresh_token", "refresh_token": "$response.body#/refreshToken"],
            ],
            "delete": ["operationId": "accounts:delete.post", "requestBody": idToken],
        ]
    }

    // MARK: Building blocks

    private static let string: JSONValue = ["type": "string"]
    private static let boolean: JSONValue = ["type": "boolean"]
    private static let integer: JSONValue = ["type": "integer", "format": "int64"]
    private static let number: JSONValue = ["type": "number"]
    private static let anyObject: JSONValue = ["type": "object"]
    private static let projectParameter = pathParameter("project")

    private static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }
    private static func array(_ items: JSONValue) -> JSONValue { ["type": "array", "items": items] }
    private static func object(_ properties: KeyValuePairs<String, JSONValue>, required: [String] = []) -> JSONValue {
        var schema: JSONObject = [
            "type": "object", "properties": .object(JSONObject(properties.map { ($0.key, $0.value) })),
        ]
        if !required.isEmpty { schema["required"] = .array(required.map { .string($0) }) }
        return .object(schema)
    }
    private static func pathParameter(_ name: String) -> JSONValue {
        ["name": .string(name), "in": "path", "required": true, "schema": string]
    }
    private static func query(_ name: String, _ schema: JSONValue) -> JSONValue {
        ["name": .string(name), "in": "query", "required": false, "schema": schema]
    }

    private static let errorResponse: JSONValue = [
        "description": "Refused, in Google's JSON error envelope",
        "content": ["application/json": ["schema": ref("GoogleErrorEnvelope")]],
    ]

    private static func operation(
        id: String,
        tag: String,
        summary: String,
        security: JSONValue = [],
        parameters: [JSONValue] = [],
        body: JSONValue? = nil,
        formBody: Bool = false,
        response: JSONValue,
        links: JSONValue? = nil
    ) -> JSONValue {
        var success: JSONObject = ["description": "OK", "content": ["application/json": ["schema": response]]]
        if let links { success["links"] = links }
        var operation: JSONObject = [
            "operationId": .string(id), "tags": [.string(tag)], "summary": .string(summary),
            "responses": ["200": .object(success), "default": errorResponse],
        ]
        if case .array(let schemes) = security, !schemes.isEmpty { operation["security"] = security }
        if !parameters.isEmpty { operation["parameters"] = .array(parameters) }
        if let body {
            var content: JSONObject = ["application/json": ["schema": body]]
            if formBody { content["application/x-www-form-urlencoded"] = ["schema": body] }
            operation["requestBody"] = ["required": true, "content": .object(content)]
        }
        return .object(operation)
    }

    /// A hosted page: HTML for a person, never JSON.
    private static func page(id: String, summary: String, parameters: [JSONValue] = [], form: JSONValue? = nil)
        -> JSONValue
    {
        var operation: JSONObject = [
            "operationId": .string(id), "tags": ["hearth"], "summary": .string(summary),
            "responses": [
                "200": ["description": "A page", "content": ["text/html": ["schema": string]]],
                "default": [
                    "description": "A page saying what went wrong", "content": ["text/html": ["schema": string]],
                ],
            ],
        ]
        if !parameters.isEmpty { operation["parameters"] = .array(parameters) }
        if let form {
            operation["requestBody"] = [
                "required": true, "content": ["application/x-www-form-urlencoded": ["schema": form]],
            ]
        }
        return .object(operation)
    }

    // MARK: Schemas

    /// The schemas named after HearthWire types (checked against them by `APIDescriptionTests`).
    private static var schemas: [(String, JSONValue)] {
        let actionCodeSettings: [(String, JSONValue)] = [
            ("continueUrl", string), ("canHandleCodeInApp", boolean), ("iOSBundleId", string),
            ("iOSAppStoreId", string), ("androidPackageName", string), ("androidInstallApp", boolean),
            ("androidMinimumVersion", string), ("linkDomain", string), ("dynamicLinkDomain", string),
        ]
        let provider = ref("ProviderUserInfo")
        return [
            (
                "SignUpRequest",
                object(["email": string, "password": string, "displayName": string, "returnSecureToken": boolean])
            ),
            (
                "SignInResponse",
                object(
                    [
                        "kind": string, "localId": string, "email": string, "displayName": string,
                        "profilePicture": string, "registered": boolean, "isNewUser": boolean, "idToken": string,
                        "refreshToken": string, "expiresIn": string,
                    ],
                    required: ["localId"]
                )
            ),
            (
                "SignInWithPasswordRequest",
                object(
                    ["email": string, "password": string, "returnSecureToken": boolean],
                    required: ["email", "password"]
                )
            ),
            (
                "SignInWithEmailLinkRequest",
                object(["email": string, "oobCode": string, "idToken": string], required: ["email", "oobCode"])
            ),
            (
                "SendOobCodeRequest",
                .object(
                    [
                        "type": "object",
                        "properties": .object(
                            JSONObject(
                                [
                                    (
                                        "requestType",
                                        [
                                            "type": "string",
                                            "enum": .array(
                                                ActionCodeOperation.allCases.map { .string($0.requestType) }
                                            ),
                                        ]
                                    ),
                                    ("email", string), ("newEmail", string), ("idToken", string),
                                    ("returnOobLink", boolean),
                                ] + actionCodeSettings
                            )
                        ),
                        "required": ["requestType"],
                    ]
                )
            ),
            ("SendOobCodeResponse", object(["kind": string, "email": string, "oobCode": string, "oobLink": string])),
            ("ResetPasswordRequest", object(["oobCode": string, "newPassword": string], required: ["oobCode"])),
            (
                "ResetPasswordResponse",
                object(["kind": string, "email": string, "newEmail": string, "requestType": string])
            ),
            (
                "UpdateAccountRequest",
                object(
                    [
                        "idToken": string, "localId": string, "oobCode": string, "email": string, "password": string,
                        "displayName": string, "emailVerified": boolean, "disableUser": boolean,
                        "deleteAttribute": array(string), "validSince": string, "returnSecureToken": boolean,
                    ]
                )
            ),
            (
                "UpdateAccountResponse",
                object(
                    [
                        "kind": string, "localId": string, "email": string, "displayName": string, "photoUrl": string,
                        "passwordHash": string, "providerUserInfo": array(provider), "emailVerified": boolean,
                        "newEmail": string, "idToken": string, "refreshToken": string, "expiresIn": string,
                    ]
                )
            ),
            ("LookupRequest", object(["idToken": string, "localId": array(string), "email": array(string)])),
            ("LookupResponse", object(["kind": string, "users": array(ref("UserRecord"))])),
            (
                "UserRecord",
                object(
                    [
                        "localId": string, "email": string, "emailVerified": boolean, "displayName": string,
                        "photoUrl": string, "phoneNumber": string, "passwordHash": string, "salt": string,
                        "passwordUpdatedAt": number, "providerUserInfo": array(provider), "validSince": string,
                        "disabled": boolean, "lastLoginAt": string, "createdAt": string, "lastRefreshAt": string,
                        "customAttributes": string, "emailLinkSignin": boolean,
                    ],
                    required: ["localId"]
                )
            ),
            (
                "ProviderUserInfo",
                object(
                    [
                        "providerId": string, "federatedId": string, "email": string, "phoneNumber": string,
                        "rawId": string, "displayName": string, "photoUrl": string,
                    ],
                    required: ["providerId"]
                )
            ),
            ("DeleteAccountRequest", object(["idToken": string, "localId": string])),
            ("DeleteAccountResponse", object(["kind": string])),
            (
                "BatchGetAccountsResponse",
                object(["kind": string, "users": array(ref("UserRecord")), "nextPageToken": string])
            ),
            (
                "CreateAccountRequest",
                object(
                    [
                        "localId": string, "email": string, "password": string, "displayName": string,
                        "emailVerified": boolean, "disabled": boolean,
                    ]
                )
            ),
            (
                "RefreshTokenRequest",
                object(["grant_type": string, "refresh_token": string], required: ["grant_type", "refresh_token"])
            ),
            (
                "RefreshTokenResponse",
                object(
                    [
                        "access_token": string, "expires_in": string, "token_type": string, "refresh_token": string,
                        "id_token": string, "user_id": string, "project_id": string,
                    ],
                    required: ["expires_in", "refresh_token", "id_token", "user_id"]
                )
            ),
            (
                "CreateInstallationRequest",
                object(
                    ["fid": string, "appId": string, "authVersion": string, "sdkVersion": string],
                    required: ["fid", "appId", "authVersion", "sdkVersion"]
                )
            ),
            (
                "InstallationAuthToken",
                object(["token": string, "expiresIn": string], required: ["token", "expiresIn"])
            ),
            (
                "CreateInstallationResponse",
                object(
                    ["name": string, "fid": string, "refreshToken": string, "authToken": ref("InstallationAuthToken")],
                    required: ["name", "fid", "refreshToken", "authToken"]
                )
            ),
            (
                "GenerateAuthTokenRequest",
                object(["installation": object(["sdkVersion": string, "appId": string])], required: ["installation"])
            ),
            ("VerifyInstallationTokenRequest", object(["token": string], required: ["token"])),
            (
                "VerifyInstallationTokenResponse",
                object(
                    [
                        "fid": string, "appId": string, "projectNumber": string, "expireTime": string, "exp": integer,
                        "iat": integer,
                    ],
                    required: ["fid", "appId", "projectNumber", "exp"]
                )
            ),
            (
                "ProjectConfigResponse",
                object(
                    ["kind": string, "projectId": string, "authorizedDomains": array(string)],
                    required: ["projectId"]
                )
            ),
            (
                "DevelopmentOobCode",
                object(
                    ["email": string, "newEmail": string, "oobCode": string, "oobLink": string, "requestType": string],
                    required: ["email", "requestType"]
                )
            ),
            (
                "DevelopmentOobCodesResponse",
                object(["oobCodes": array(ref("DevelopmentOobCode"))], required: ["oobCodes"])
            ),
            (
                "JWK",
                object(
                    [
                        "kty": string, "kid": string, "alg": string, "use": string, "n": string, "e": string,
                        "crv": string, "x": string, "y": string,
                    ],
                    required: ["kty"]
                )
            ),
            ("JWKSet", object(["keys": array(ref("JWK"))], required: ["keys"])),
            (
                "GoogleErrorEnvelope",
                object(
                    [
                        "error": object(
                            [
                                "code": integer, "message": string,
                                "errors": array(object(["message": string, "domain": string, "reason": string])),
                                "status": string,
                            ],
                            required: ["code", "message"]
                        )
                    ],
                    required: ["error"]
                )
            ),
        ]
    }
}

extension HearthApplication {
    /// `GET /openapi.json`: ``APIDescription``, built once.
    func addAPIDescriptionRoutes(to router: inout Router) {
        let response = APIDescription.response
        router.get("/openapi.json", on: .eventThread) { _ in response }
    }
}
