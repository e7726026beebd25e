import HearthBase
import HearthCore
import HearthHTTP
import Testing

@testable import HearthServer

/// Every JSON route treats a field sent as `null` as a field left out: for each documented
/// field of each route, the request with `"field": null` gets the answer the same request
/// gets without the field (the same status, the same body shape, the same error message).
@Suite("JSON null means absent")
struct NullFieldTests {
    /// One route: how to call it, a fresh body for each call, and the fields it documents.
    struct Route: Sendable {
        let name: String
        let fields: [String]
        let body: @Sendable (Fixture) throws -> JSONObject
        let send: @Sendable (TestApplication, JSONObject) -> TestAnswer
    }

    static let routes: [Route] = [
        Route(
            name: "accounts:signUp",
            fields: [
                "email", "password", "displayName", "returnSecureToken", "idToken", "tenantId",
                "targetProjectId", "captchaResponse", "localId",
            ],
            body: { ["email": .string($0.newEmail()), "password": "correct horse", "returnSecureToken": true] },
            send: { $0.client("/v1/accounts:signUp", .object($1)) }
        ),
        Route(
            name: "legacy signupNewUser",
            fields: ["displayName", "returnSecureToken"],
            body: { ["email": .string($0.newEmail()), "password": "correct horse", "returnSecureToken": true] },
            send: { $0.client("/identitytoolkit/v3/relyingparty/signupNewUser", .object($1)) }
        ),
        Route(
            name: "admin accounts create",
            fields: [
                "localId", "email", "password", "displayName", "photoUrl", "emailVerified", "disabled",
                "phoneNumber", "tenantId",
            ],
            body: { ["email": .string($0.newEmail()), "password": "correct horse", "displayName": "Ada"] },
            send: { $0.admin(.post, "/v1/projects/demo-project/accounts", .object($1)) }
        ),
        Route(
            name: "accounts:signInWithPassword",
            fields: ["email", "password", "returnSecureToken", "tenantId", "captchaResponse", "clientType"],
            body: { fixture in
                [
                    "email": .string(try fixture.sharedUser().email), "password": "correct horse",
                    "returnSecureToken": true,
                ]
            },
            send: { $0.client("/v1/accounts:signInWithPassword", .object($1)) }
        ),
        Route(
            name: "legacy verifyPassword",
            fields: ["returnSecureToken", "tenantId"],
            body: { fixture in
                [
                    "email": .string(try fixture.sharedUser().email), "password": "correct horse",
                    "returnSecureToken": true,
                ]
            },
            send: { $0.client("/identitytoolkit/v3/relyingparty/verifyPassword", .object($1)) }
        ),
        Route(
            name: "accounts:lookup by an app",
            fields: ["idToken", "tenantId", "localId", "email", "targetProjectId"],
            body: { ["idToken": .string(try $0.sharedUser().idToken)] },
            send: { $0.client("/v1/accounts:lookup", .object($1)) }
        ),
        Route(
            name: "accounts:lookup by an admin",
            fields: ["localId", "email", "phoneNumber", "federatedUserId", "idToken", "tenantId"],
            body: { ["localId": .array([.string(try $0.sharedUser().localID)])] },
            send: { $0.admin(.post, "/v1/projects/demo-project/accounts:lookup", .object($1)) }
        ),
        Route(
            name: "accounts:update by an app",
            fields: [
                "idToken", "email", "password", "displayName", "photoUrl", "deleteAttribute", "deleteProvider",
                "returnSecureToken", "phoneNumber", "oobCode", "emailVerified", "disableUser", "validSince",
                "customAttributes", "localId", "tenantId", "targetProjectId",
            ],
            body: {
                [
                    "idToken": .string(try $0.sharedUser().idToken), "displayName": "Grace",
                    "photoUrl": "https://example.com/a.png",
                ]
            },
            send: { $0.client("/v1/accounts:update", .object($1)) }
        ),
        Route(
            name: "legacy setAccountInfo",
            fields: ["idToken", "displayName", "photoUrl", "deleteAttribute", "returnSecureToken"],
            body: { ["idToken": .string(try $0.sharedUser().idToken), "displayName": "Grace"] },
            send: { $0.client("/identitytoolkit/v3/relyingparty/setAccountInfo", .object($1)) }
        ),
        Route(
            name: "accounts:update by an admin",
            fields: [
                "localId", "email", "password", "displayName", "photoUrl", "deleteAttribute", "emailVerified",
                "disableUser", "validSince", "customAttributes", "phoneNumber", "returnSecureToken", "idToken",
            ],
            body: { ["localId": .string(try $0.sharedUser().localID), "displayName": "Grace", "emailVerified": true] },
            send: { $0.admin(.post, "/v1/projects/demo-project/accounts:update", .object($1)) }
        ),
        Route(
            name: "accounts:delete",
            fields: ["idToken", "localId", "tenantId"],
            body: { ["idToken": .string(try $0.user().idToken)] },
            send: { $0.client("/v1/accounts:delete", .object($1)) }
        ),
        Route(
            name: "accounts:delete by an admin",
            fields: ["localId", "idToken"],
            body: { ["localId": .string(try $0.user().localID)] },
            send: { $0.admin(.post, "/v1/projects/demo-project/accounts:delete", .object($1)) }
        ),
        Route(
            name: "accounts:batchDelete",
            fields: ["localIds", "force"],
            body: { ["localIds": .array([.string(try $0.user().localID)]), "force": true] },
            send: { $0.admin(.post, "/v1/projects/demo-project/accounts:batchDelete", .object($1)) }
        ),
        Route(
            name: "accounts:createAuthUri",
            fields: ["identifier", "continueUri", "email", "providerId", "tenantId"],
            body: { ["identifier": .string($0.newEmail()), "continueUri": "http://localhost/"] },
            send: { $0.client("/v1/accounts:createAuthUri", .object($1)) }
        ),
        Route(
            name: "accounts:sendOobCode",
            fields: [
                "requestType", "email", "newEmail", "idToken", "continueUrl", "canHandleCodeInApp",
                "iOSBundleId", "iOSAppStoreId", "androidPackageName", "androidInstallApp", "androidMinimumVersion",
                "linkDomain", "dynamicLinkDomain", "returnOobLink", "languageCode", "tenantId", "targetProjectId",
                "captchaResp", "userIp",
            ],
            body: { fixture in
                [
                    "requestType": "PASSWORD_RESET", "email": .string(try fixture.sharedUser().email),
                    "continueUrl": "http://localhost/done", "canHandleCodeInApp": false,
                ]
            },
            send: { $0.client("/v1/accounts:sendOobCode", .object($1)) }
        ),
        Route(
            name: "legacy getOobConfirmationCode",
            fields: ["requestType", "email", "continueUrl", "canHandleCodeInApp", "iOSBundleId", "androidPackageName"],
            body: { ["requestType": "VERIFY_EMAIL", "idToken": .string(try $0.sharedUser().idToken)] },
            send: { $0.client("/identitytoolkit/v3/relyingparty/getOobConfirmationCode", .object($1)) }
        ),
        Route(
            name: "accounts:sendOobCode by an admin",
            fields: ["requestType", "email", "returnOobLink", "continueUrl", "canHandleCodeInApp", "linkDomain"],
            body: { fixture in
                [
                    "requestType": "EMAIL_SIGNIN", "email": .string(fixture.newEmail()), "returnOobLink": true,
                    "continueUrl": "http://localhost/done", "canHandleCodeInApp": true,
                ]
            },
            send: { $0.admin(.post, "/v1/projects/demo-project/accounts:sendOobCode", .object($1)) }
        ),
        Route(
            name: "accounts:resetPassword",
            fields: ["oobCode", "newPassword", "email", "oldPassword", "tenantId"],
            body: { ["oobCode": .string(try $0.code("PASSWORD_RESET")), "newPassword": "battery staple"] },
            send: { $0.client("/v1/accounts:resetPassword", .object($1)) }
        ),
        Route(
            name: "accounts:update with an action code",
            fields: ["oobCode", "idToken", "localId", "displayName"],
            body: { ["oobCode": .string(try $0.code("VERIFY_EMAIL"))] },
            send: { $0.client("/v1/accounts:update", .object($1)) }
        ),
        Route(
            name: "accounts:signInWithEmailLink",
            fields: ["email", "oobCode", "idToken", "tenantId"],
            body: { fixture in
                let email = fixture.newEmail()
                return ["email": .string(email), "oobCode": .string(try fixture.code("EMAIL_SIGNIN", email: email))]
            },
            send: { $0.client("/v1/accounts:signInWithEmailLink", .object($1)) }
        ),
        Route(
            name: "Secure Token",
            fields: ["grantType", "refreshToken", "code"],
            body: { ["grantType": "refresh_token", "refreshToken": .string(try $0.sharedUser().refreshToken)] },
            send: { $0.client("/v1/token", .object($1)) }
        ),
        Route(
            name: "Installations create",
            fields: ["fid", "appId", "authVersion", "sdkVersion"],
            body: { _ in ["appId": .string(DevelopmentSeed.webAppID), "authVersion": "FIS_v2", "sdkVersion": "w:0.6.4"]
            },
            send: { app, body in
                app.send(
                    .post,
                    "/v1/projects/demo-project/installations",
                    json: .object(body),
                    headers: [("x-goog-api-key", TestApplication.apiKey)]
                )
            }
        ),
        Route(
            name: "Installations auth token",
            fields: ["installation", "installation.appId", "installation.sdkVersion"],
            body: { _ in
                ["installation": ["appId": .string(DevelopmentSeed.webAppID), "sdkVersion": "w:0.6.4"]]
            },
            send: { app, body in
                guard let (fid, refreshToken) = try? app.registerInstallation() else { return app.send(.get, "/") }
                return app.send(
                    .post,
                    "/v1/projects/demo-project/installations/\(fid)/authTokens:generate",
                    json: .object(body),
                    headers: [("x-goog-api-key", TestApplication.apiKey), ("Authorization", "FIS_v2 \(refreshToken)")]
                )
            }
        ),
        Route(
            name: "installations:verifyToken",
            fields: ["token"],
            body: { _ in ["token": "not-a-token"] },
            send: { $0.admin(.post, "/v1/projects/demo-project/installations:verifyToken", .object($1)) }
        ),
        Route(
            name: "installation webhooks",
            fields: ["url", "secret", "description"],
            body: { _ in ["url": "https://hooks.example.com/fis", "description": "deletions"] },
            send: { $0.admin(.post, "/hearth/v1/projects/demo-project/installationWebhooks", .object($1)) }
        ),
        Route(
            name: "mail:sendTest",
            fields: ["to", "email", "kind", "languageCode", "displayName"],
            body: { ["to": .string($0.newEmail()), "kind": "test", "displayName": "Ada"] },
            send: { $0.admin(.post, "/hearth/v1/projects/demo-project/mail:sendTest", .object($1)) }
        ),
        Route(
            name: "mail template",
            fields: ["subject", "html", "text"],
            body: { _ in ["subject": "Hello %DISPLAY_NAME%"] },
            send: { $0.admin(.put, "/hearth/v1/projects/demo-project/mail/templates/test/en", .object($1)) }
        ),
        Route(
            name: "signingKeys:rotate",
            fields: ["purpose"],
            body: { _ in ["purpose": "idTokens"] },
            send: { $0.admin(.post, "/hearth/v1/projects/demo-project/signingKeys:rotate", .object($1)) }
        ),
    ]

    // One test over every route, in turn: the application answers deferred writes by blocking
    // its caller, as the server's worker threads do, so the routes must not share the
    // test runner's few threads at once.
    @Test("a field sent as null gets the answer of the request without it, on every route")
    func nullIsAbsent() throws {
        for route in Self.routes { try check(route) }
    }

    private func check(_ route: Route) throws {
        let app = try TestApplication()
        try app.allowManyEmails()
        // As `hearth serve` does: a key made inside a deferred answer would wait on its own write.
        try app.application.prepareSigningKeys()
        let fixture = Fixture(app)
        for field in route.fields {
            var without = try route.body(fixture)
            without.remove(path: field)
            var withNull = try route.body(fixture)
            withNull.remove(path: field)
            withNull.setNull(path: field)
            let expected = route.send(app, without)
            let answer = route.send(app, withNull)
            #expect(
                answer.status == expected.status && answer.json.shape == expected.json.shape,
                "\(route.name) with \(field): null answered \(answer.status) \(answer.text), without it \(expected.status) \(expected.text)"
            )
        }
    }

    @Test("a field of the wrong type is still refused, naming the field")
    func wrongTypeIsRefused() throws {
        let app = try TestApplication()
        let user = try app.signUp("ada@example.com")
        let answer = app.client("/v1/accounts:update", ["idToken": user["idToken"]!, "displayName": 5])
        #expect(answer.status == 400)
        #expect(answer.errorMessage == "Invalid value at 'displayName' (TYPE_STRING), 5")
    }

    @Test("field names match in any mix of case and underscores, and only so")
    func namesMatchLeniently() {
        #expect(RequestFields.namesMatch("return_secure_token", "returnSecureToken"))
        #expect(RequestFields.namesMatch("targetProjectid", "targetProjectId"))
        #expect(RequestFields.namesMatch("ios_bundle_id", "iOSBundleId"))
        #expect(RequestFields.namesMatch("_email_", "email"))
        #expect(!RequestFields.namesMatch("emails", "email"))
        #expect(!RequestFields.namesMatch("emai", "email"))
        #expect(!RequestFields.namesMatch("", "email"))
        #expect(RequestFields.namesMatch("__", ""))
    }
}

/// Fresh users, emails and action codes for one route's calls.
final class Fixture: @unchecked Sendable {
    struct User {
        let email: String
        let localID: String
        let idToken: String
        let refreshToken: String
    }

    let app: TestApplication
    private var count = 0
    private var shared: User?

    init(_ app: TestApplication) { self.app = app }

    func newEmail() -> String {
        count += 1
        return "user\(count)@example.com"
    }

    /// A newly signed-up user (password `correct horse`).
    func user() throws -> User {
        let email = newEmail()
        let answer = try app.signUp(email, password: "correct horse")
        return User(
            email: email,
            localID: answer["localId"]?.stringValue ?? "",
            idToken: answer["idToken"]?.stringValue ?? "",
            refreshToken: answer["refreshToken"]?.stringValue ?? ""
        )
    }

    /// One user for the calls that leave their user as it was (created on first use).
    func sharedUser() throws -> User {
        if let shared { return shared }
        let created = try user()
        shared = created
        return created
    }

    /// An admin-generated action code of `requestType`, for a new user (or `email`).
    func code(_ requestType: String, email: String? = nil) throws -> String {
        let address = try email ?? user().email
        var body: JSONObject = ["requestType": .string(requestType), "email": .string(address), "returnOobLink": true]
        if requestType == "EMAIL_SIGNIN" {
            body["continueUrl"] = "http://localhost/done"
            body["canHandleCodeInApp"] = true
        }
        let answer = app.admin(.post, "/v1/projects/demo-project/accounts:sendOobCode", .object(body))
        guard let code = answer.json["oobCode"]?.stringValue else {
            throw TestFailure("sendOobCode answered \(answer.status): \(answer.text)")
        }
        return code
    }
}

extension JSONObject {
    /// Removes the member at a dotted path (`installation.appId`).
    mutating func remove(path: String) {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        if parts.count == 1 {
            self[path] = nil
        } else if case .object(var inner)? = self[parts[0]] {
            inner.remove(path: parts[1])
            self[parts[0]] = .object(inner)
        }
    }

    /// Sets the member at a dotted path to `null` (creating the objects on the way).
    mutating func setNull(path: String) {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        if parts.count == 1 {
            self[path] = .null
        } else {
            var inner = self[parts[0]]?.objectValue ?? JSONObject()
            inner.setNull(path: parts[1])
            self[parts[0]] = .object(inner)
        }
    }
}

extension JSONValue {
    /// The value with what legitimately differs between two equal requests (tokens, IDs,
    /// emails, times) reduced to its type; error messages and `kind` are kept.
    var shape: JSONValue {
        switch self {
        case .string: return "string"
        case .int, .double: return "number"
        case .array(let elements): return .array(elements.map(\.shape))
        case .object(let object):
            var shaped = JSONObject()
            for member in object.members {
                shaped[member.key] =
                    ["message", "kind", "reason", "status"].contains(member.key) ? member.value : member.value.shape
            }
            return .object(shaped)
        case .null, .bool: return self
        }
    }
}
