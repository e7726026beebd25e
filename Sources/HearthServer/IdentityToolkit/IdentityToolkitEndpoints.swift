import HearthCore
import HearthHTTP

/// The Identity Toolkit methods Hearth serves, each under every path a Firebase client uses:
///
/// * `/v1/<method>` (`/v1/accounts:signUp`), for client SDKs and project-less admin calls;
/// * `/v1/projects/{project}/<method>` for project-scoped admin calls, when the method has one;
/// * the legacy `/identitytoolkit/v3/relyingparty/<legacyName>` of the Apple and Android SDKs,
///   mapped through ``legacyNames`` (the `/identitytoolkit.googleapis.com` and
///   `/www.googleapis.com` host prefixes are stripped by the router).
///
/// Areas add their methods to one value, and `install` registers them all, so a method and
/// its legacy alias can never drift apart.
struct IdentityToolkitEndpoints {
    struct Endpoint {
        let method: String
        let httpMethods: [HTTPMethod]
        let projectScoped: Bool
        let handler: Router.Handler
    }

    private(set) var endpoints: [Endpoint] = []

    /// The legacy v3 `relyingparty/<name>` methods and the v1 methods they stand for.
    static let legacyNames: [String: String] = [
        "createAuthUri": "accounts:createAuthUri",
        "deleteAccount": "accounts:delete",
        "downloadAccount": "accounts:batchGet",
        "emailLinkSignin": "accounts:signInWithEmailLink",
        "getAccountInfo": "accounts:lookup",
        "getOobConfirmationCode": "accounts:sendOobCode",
        "getProjectConfig": "projects",
        "getRecaptchaParam": "recaptchaParams",
        "publicKeys": "publicKeys",
        "resetPassword": "accounts:resetPassword",
        "sendVerificationCode": "accounts:sendVerificationCode",
        "setAccountInfo": "accounts:update",
        "setProjectConfig": "setProjectConfig",
        "signOutUser": "signOutUser",
        "signupNewUser": "accounts:signUp",
        "uploadAccount": "accounts:batchCreate",
        "verifyAssertion": "accounts:signInWithIdp",
        "verifyCustomToken": "accounts:signInWithCustomToken",
        "verifyPassword": "accounts:signInWithPassword",
        "verifyPhoneNumber": "accounts:signInWithPhoneNumber",
    ]

    /// Adds a method such as `accounts:lookup`.
    /// - Parameter projectScoped: also serve `/v1/projects/{project}/<method>`.
    mutating func add(
        _ method: String,
        _ httpMethods: [HTTPMethod] = [.post],
        projectScoped: Bool = false,
        handler: @escaping Router.Handler
    ) {
        precondition(!endpoints.contains { $0.method == method }, "Identity Toolkit method \(method) added twice")
        endpoints.append(
            Endpoint(method: method, httpMethods: httpMethods, projectScoped: projectScoped, handler: handler)
        )
    }

    /// Registers every method under its paths, and the legacy route.
    func install(in router: inout Router) {
        var byMethod: [String: Router.Handler] = [:]
        for endpoint in endpoints {
            byMethod[endpoint.method] = endpoint.handler
            for httpMethod in endpoint.httpMethods {
                router.add(httpMethod, "/v1/\(endpoint.method)", endpoint.handler)
                if endpoint.projectScoped {
                    router.add(httpMethod, "/v1/projects/{project}/\(endpoint.method)", endpoint.handler)
                }
            }
        }
        let handlers = byMethod
        // Apple's SDK calls getProjectConfig with GET and everything else with POST; the legacy
        // API never distinguished methods by verb.
        let legacy: Router.Handler = { request in
            let name = request.pathParameters["method"] ?? ""
            guard let method = Self.legacyNames[name] else {
                throw GoogleAPIError(
                    code: .notFound,
                    message: "Unknown Identity Toolkit method \(name).",
                    status: .notFound
                )
            }
            // A legacy name whose method Hearth does not serve is answered like that method's
            // v1 path (no route: 404), not with a server error.
            guard let handler = handlers[method] else {
                throw GoogleAPIError(
                    code: .notFound,
                    message: "\(name) is not supported by Hearth.",
                    status: .notFound
                )
            }
            return try handler(request)
        }
        router.post("/identitytoolkit/v3/relyingparty/{method}", legacy)
        router.get("/identitytoolkit/v3/relyingparty/{method}", legacy)
    }
}

extension HearthApplication {
    /// Wraps an Identity Toolkit handler: reads the request leniently and renders
    /// ``AuthError``s in the Identity Toolkit envelope.
    func identityToolkit(_ body: @escaping @Sendable (IdentityToolkitRequest) throws -> Response) -> Router.Handler {
        { request in
            do {
                return try body(IdentityToolkitRequest(request))
            } catch let error as AuthError {
                return error.envelope.response()
            }
        }
    }

    /// Every Identity Toolkit and Secure Token route.
    func addIdentityToolkitRoutes(to router: inout Router) {
        var endpoints = IdentityToolkitEndpoints()
        addAccountEndpoints(to: &endpoints)
        addAdminAccountEndpoints(to: &endpoints)
        addEmailActionEndpoints(to: &endpoints)
        endpoints.install(in: &router)
        addSecureTokenRoutes(to: &router)
    }
}
