import HearthBase
import HearthHTTP
import Testing

@Suite struct RouterTests {
    /// A router whose handlers answer with their own name and the bound parameters.
    private func makeRouter(cors: CORSPolicy? = .permissive) -> Router {
        var router = Router(aliasPrefixes: Router.firebaseAliasPrefixes, cors: cors)
        func echo(_ name: String) -> Router.Handler {
            { request in
                var object = JSONObject()
                object["route"] = .string(name)
                for parameter in request.pathParameters.parameters { object[parameter.name] = .string(parameter.value) }
                return .json(.object(object))
            }
        }
        router.get("/healthz", echo("health"))
        router.post("/v1/projects/{projectId}/installations", echo("createInstallation"))
        router.delete("/v1/projects/{projectId}/installations/{fid}", echo("deleteInstallation"))
        router.post("/v1/projects/{projectId}/installations/{fid}/authTokens:generate", echo("generateToken"))
        router.post("/v1/accounts:sendOobCode", echo("sendOobCode"))
        router.post("/v1/accounts:lookup", echo("lookup"))
        router.post("/v1/projects/{p}/accounts:batchGet", echo("batchGet"))
        router.post("/v1/projects/{p}/accounts", echo("createAccount"))
        router.delete("/v1/project/{p}/instanceId/{fid}", echo("deleteInstanceId"))
        router.post("/v1/{resource}:verify", echo("verify"))
        router.get("/v1/{resource}", echo("getResource"))
        router.post("/identitytoolkit/v3/relyingparty/{method}", echo("legacy"))
        return router
    }

    private func call(_ router: Router, _ method: HTTPMethod, _ target: String, headers: HTTPHeaders = HTTPHeaders())
        throws
        -> (Response, JSONValue?)
    {
        let response = router.respond(to: Request(method: method, target: target, headers: headers))
        return (response, response.body.isEmpty ? nil : try JSONValue.parse(response.body))
    }

    @Test func matchesLiteralRoutes() throws {
        let (response, body) = try call(makeRouter(), .get, "/healthz")
        #expect(response.status == .ok)
        #expect(body?["route"] == "health")
    }

    @Test func bindsPathParameters() throws {
        let (_, body) = try call(
            makeRouter(),
            .delete,
            "/v1/projects/demo-project/installations/cLdX3Tp5QmKQ8r2f9aB1Cd"
        )
        #expect(body == ["route": "deleteInstallation", "projectId": "demo-project", "fid": "cLdX3Tp5QmKQ8r2f9aB1Cd"])
    }

    @Test func matchesColonVerbsAfterParametersAndLiterals() throws {
        let router = makeRouter()
        #expect(
            try call(router, .post, "/v1/projects/p/installations/f1/authTokens:generate").1 == [
                "route": "generateToken", "projectId": "p", "fid": "f1",
            ]
        )
        #expect(try call(router, .post, "/v1/accounts:sendOobCode").1?["route"] == "sendOobCode")
        #expect(try call(router, .post, "/v1/projects/p/accounts:batchGet").1 == ["route": "batchGet", "p": "p"])
        #expect(try call(router, .post, "/v1/projects/p/accounts").1 == ["route": "createAccount", "p": "p"])
        #expect(try call(router, .post, "/v1/project/p/instanceId/f").0.status == .methodNotAllowed)
        #expect(
            try call(router, .delete, "/v1/project/p/instanceId/f").1 == [
                "route": "deleteInstanceId", "p": "p", "fid": "f",
            ]
        )
    }

    @Test func bindsTheParameterBeforeAVerb() throws {
        let router = makeRouter()
        #expect(try call(router, .post, "/v1/tokens:verify").1 == ["route": "verify", "resource": "tokens"])
        // A segment that is only the verb has no value for the parameter.
        #expect(try call(router, .post, "/v1/:verify").0.status == .methodNotAllowed)
        // Without the verb it is a plain parameter (GET only).
        #expect(try call(router, .get, "/v1/tokens").1 == ["route": "getResource", "resource": "tokens"])
    }

    @Test func prefersLiteralsButFallsBackToParameters() throws {
        let router = makeRouter()
        // `accounts:lookup` is a literal POST route; a GET of the same path reaches `{resource}`.
        #expect(try call(router, .post, "/v1/accounts:lookup").1?["route"] == "lookup")
        #expect(
            try call(router, .get, "/v1/accounts:lookup").1 == ["route": "getResource", "resource": "accounts:lookup"]
        )
    }

    @Test func decodesPercentEncodedSegmentsBeforeMatching() throws {
        let router = makeRouter()
        #expect(try call(router, .post, "/v1/accounts%3AsendOobCode").1?["route"] == "sendOobCode")
        #expect(try call(router, .post, "/v1/accounts%3asendOobCode").1?["route"] == "sendOobCode")
        // An encoded slash stays inside its segment.
        #expect(try call(router, .get, "/v1/a%2Fb").1 == ["route": "getResource", "resource": "a/b"])
        #expect(try call(router, .get, "/v1/caf%C3%A9").1?["resource"] == "café")
    }

    @Test func toleratesOneTrailingSlash() throws {
        let router = makeRouter()
        #expect(
            try call(router, .post, "/v1/projects/x/installations/").1 == [
                "route": "createInstallation", "projectId": "x",
            ]
        )
        #expect(try call(router, .get, "/healthz/").0.status == .ok)
        #expect(try call(router, .get, "/healthz//").0.status == .notFound)
        #expect(try call(router, .get, "//healthz").0.status == .notFound)
    }

    @Test func stripsHostAliasPrefixes() throws {
        let router = makeRouter()
        #expect(
            try call(router, .post, "/firebaseinstallations.googleapis.com/v1/projects/p/installations").1 == [
                "route": "createInstallation", "projectId": "p",
            ]
        )
        #expect(
            try call(router, .post, "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode").1?["route"]
                == "sendOobCode"
        )
        #expect(
            try call(router, .post, "/www.googleapis.com/identitytoolkit/v3/relyingparty/getOobConfirmationCode").1 == [
                "route": "legacy", "method": "getOobConfirmationCode",
            ]
        )
        #expect(try call(router, .get, "/securetoken.googleapis.com/healthz").0.status == .ok)
        // Only whole leading segments are aliases.
        #expect(try call(router, .get, "/securetoken.googleapis.comx/healthz").0.status == .notFound)
        #expect(try call(router, .get, "/v1/securetoken.googleapis.com").1?["resource"] == "securetoken.googleapis.com")
    }

    @Test func answersUnknownPathsWithA404Envelope() throws {
        let (response, body) = try call(makeRouter(), .get, "/v2/nothing")
        #expect(response.status == .notFound)
        #expect(body?["error"]?["code"] == 404)
        #expect(body?["error"]?["status"] == "NOT_FOUND")
        #expect(response.headers["content-type"] == "application/json; charset=UTF-8")
    }

    @Test func answersAKnownPathWithAnotherMethodWith405AndAllow() throws {
        let (response, body) = try call(makeRouter(), .put, "/healthz")
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD, OPTIONS")
        #expect(body?["error"]?["code"] == 405)
        let (deleteOnly, _) = try call(makeRouter(cors: nil), .get, "/v1/project/p/instanceId/f")
        #expect(deleteOnly.headers["allow"] == "DELETE")
    }

    @Test func servesHeadWithTheGetHandler() throws {
        let (response, body) = try call(makeRouter(), .head, "/healthz")
        #expect(response.status == .ok)
        // The server drops the body on the wire; the router keeps it so Content-Length is right.
        #expect(body?["route"] == "health")
    }

    @Test func answersPreflightsWithPermissiveCORS() throws {
        let headers: HTTPHeaders = [
            "Origin": "https://app.example.com", "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "x-goog-api-key,x-custom",
        ]
        let (response, _) = try call(makeRouter(), .options, "/v1/projects/p/accounts:batchGet", headers: headers)
        #expect(response.status == .noContent)
        #expect(response.body.isEmpty)
        #expect(response.headers["Access-Control-Allow-Origin"] == "*")
        #expect(response.headers["Access-Control-Allow-Methods"] == "POST, OPTIONS")
        let allowed = response.headers["Access-Control-Allow-Headers"] ?? ""
        for header in [
            "x-goog-api-key", "x-firebase-locale", "x-client-version", "x-firebase-gmpid", "authorization",
            "content-type", "content-encoding", "x-custom",
        ] {
            #expect(allowed.contains(header), "\(header) missing")
        }
        #expect(try call(makeRouter(), .options, "/nowhere", headers: headers).0.status == .notFound)
        #expect(try call(makeRouter(cors: nil), .options, "/healthz").0.status == .methodNotAllowed)
    }

    @Test func addsAllowOriginToResponsesForCrossOriginRequests() throws {
        let router = makeRouter()
        #expect(
            try call(router, .get, "/healthz", headers: ["Origin": "https://a.example"]).0.headers[
                "Access-Control-Allow-Origin"
            ] == "*"
        )
        #expect(try call(router, .get, "/healthz").0.headers["Access-Control-Allow-Origin"] == nil)
        #expect(
            try call(router, .get, "/missing", headers: ["Origin": "https://a.example"]).0.headers[
                "Access-Control-Allow-Origin"
            ] == "*"
        )
    }

    @Test func usesExplicitOptionsAndHeadRoutesFirst() throws {
        var router = makeRouter()
        router.add(.options, "/healthz") { _ in .text("custom options") }
        router.add(.head, "/healthz") { _ in .empty(.accepted) }
        #expect(router.respond(to: Request(method: .options, target: "/healthz")).body == Array("custom options".utf8))
        #expect(router.respond(to: Request(method: .head, target: "/healthz")).status == 202)
    }

    @Test func turnsThrownErrorsIntoResponses() throws {
        struct Secret: Error {}
        let capture = LogCapture()
        var router = Router(log: capture.log)
        router.post("/known") { _ in throw GoogleAPIError.notFound("EMAIL_NOT_FOUND").withoutStatus() }
        router.post("/unknown") { _ in throw Secret() }
        let (known, knownBody) = try call(router, .post, "/known")
        #expect(known.status == .notFound)
        #expect(knownBody?["error"]?["message"] == "EMAIL_NOT_FOUND")
        let (unknown, unknownBody) = try call(router, .post, "/unknown")
        #expect(unknown.status == .internalServerError)
        #expect(unknownBody?["error"]?["message"] == "INTERNAL")
        #expect(!String(decoding: unknown.body, as: UTF8.self).contains("Secret"))
        let logged = capture.lines()
        #expect(logged.count == 1)
        #expect(logged.first?.contains(#""level":"error""#) == true)
        #expect(logged.first?.contains("Secret") == true)
    }

    @Test func rejectsTargetsThatAreNotAbsolutePaths() throws {
        #expect(try call(makeRouter(), .options, "*").0.status == .badRequest)
    }
}

extension HTTPStatus {
    fileprivate static let accepted: HTTPStatus = 202
}

@Suite struct RouterMissTests {
    @Test("misses under a prefix go to its handler, longest prefix first; others keep the JSON envelope")
    func missesUnderAPrefix() throws {
        var router = Router()
        router.get("/pages/form", { _ in .text("form") })
        router.post("/pages/form", { _ in .text("sent") })
        router.answerMisses(under: "/pages") { _, miss in
            .text(
                miss == .notFound ? "pages: not found" : "pages: method",
                status: miss == .notFound ? .notFound : .methodNotAllowed
            )
        }
        router.answerMisses(under: "/pages/deep") { _, _ in .text("deep", status: .notFound) }

        let missing = router.respond(to: Request(method: .get, target: "/pages/nothing"))
        #expect(missing.status == .notFound && String(decoding: missing.body, as: UTF8.self) == "pages: not found")
        let deep = router.respond(to: Request(method: .get, target: "/pages/deep/er"))
        #expect(String(decoding: deep.body, as: UTF8.self) == "deep")
        let method = router.respond(to: Request(method: .put, target: "/pages/form"))
        #expect(method.status == .methodNotAllowed && String(decoding: method.body, as: UTF8.self) == "pages: method")
        #expect(method.headers["Allow"] == "GET, HEAD, POST, OPTIONS")
        // A CORS preflight is answered as on any path.
        let preflight = router.respond(
            to: Request(method: .options, target: "/pages/form", headers: ["Origin": "https://app.example"])
        )
        #expect(preflight.status != .methodNotAllowed)
        // Outside the prefix (and on a path that only starts with the same letters), the envelope.
        for target in ["/elsewhere", "/pagesx/form"] {
            let other = router.respond(to: Request(method: .get, target: target))
            #expect(other.status == .notFound && other.headers["Content-Type"] == Response.jsonContentType)
        }
    }
}
