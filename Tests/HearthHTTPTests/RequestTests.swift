import HearthBase
import Testing

@testable import HearthHTTP

@Suite struct RequestTests {
    @Test func splitsTheTargetIntoPathAndDecodedQuery() {
        let request = Request(method: .get, target: "/v1/x%2Fy?key=abc&q=a+b%20c&empty=&flag&key=second&%E2%82%AC=%zz")
        #expect(request.path == "/v1/x%2Fy")
        #expect(request.query["key"] == "abc")
        #expect(request.query.values(for: "key") == ["abc", "second"])
        #expect(request.query["q"] == "a b c")
        #expect(request.query["empty"] == "")
        #expect(request.query["flag"] == "")
        #expect(request.query["€"] == "%zz")
        #expect(request.query.items.map(\.name) == ["key", "q", "empty", "flag", "key", "€"])
        #expect(request.query["missing"] == nil)
    }

    @Test func decodesPathSegmentsOneByOne() {
        #expect(Request(method: .get, target: "/a/b%2Fc/d%3Ae/").pathSegments == ["a", "b/c", "d:e"])
        #expect(Request(method: .get, target: "/").pathSegments == [])
        #expect(Request(method: .get, target: "/a//b").pathSegments == ["a", "", "b"])
        #expect(Request(method: .get, target: "/a+b/%ZZ/%e2%82").pathSegments == ["a+b", "%ZZ", "\u{FFFD}"])
    }

    @Test func looksUpHeadersWithoutRegardToCase() {
        let request = Request(
            method: .get,
            target: "/",
            headers: ["X-Goog-Api-Key": "k", "Accept": "a", "accept": "b"]
        )
        #expect(request.headers["x-goog-api-key"] == "k")
        #expect(request.headers["X-GOOG-API-KEY"] == "k")
        #expect(request.headers.values(for: "ACCEPT") == ["a", "b"])
        #expect(request.headers.fields.map(\.name) == ["x-goog-api-key", "accept", "accept"])
    }

    @Test func editsHeaders() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "X-A": "1"]
        headers.set("content-type", "application/json")
        headers.add("X-A", "2")
        headers.remove("x-missing")
        #expect(headers["Content-Type"] == "application/json")
        #expect(headers.values(for: "x-a") == ["1", "2"])
        headers.remove("X-A")
        #expect(headers.count == 1)
    }

    @Test func decodesAFormBody() {
        let request = Request(
            method: .post,
            target: "/v1/token",
            body: Array("grant_type=refresh_token&refresh_token=a%2Bb+c".utf8)
        )
        #expect(request.formItems["grant_type"] == "refresh_token")
        #expect(request.formItems["refresh_token"] == "a+b c")
    }

    @Test func parsesAJSONBody() throws {
        let request = Request(
            method: .post,
            target: "/",
            body: Array(#"{"email":"a@b.c","returnSecureToken":true}"#.utf8)
        )
        #expect(try request.jsonBody() == ["email": "a@b.c", "returnSecureToken": true])
    }

    @Test func readsAnEmptyJSONBodyAsAnEmptyObject() throws {
        #expect(try Request(method: .post, target: "/").jsonBody() == [:])
        #expect(try Request(method: .post, target: "/", body: Array(" \n".utf8)).jsonBody() == [:])
    }

    @Test func rejectsMalformedJSONWithAnInvalidArgumentEnvelope() throws {
        let request = Request(method: .post, target: "/", body: Array(#"{"email": }"#.utf8))
        #expect(throws: GoogleAPIError.self) { try request.jsonBody() }
        do {
            _ = try request.jsonBody()
        } catch {
            #expect(error.code == .badRequest)
            #expect(error.status == .invalidArgument)
            #expect(error.message == "Invalid JSON payload received. Unexpected token '}' at byte 10.")
            let body = try JSONValue.parse(error.response().body)
            #expect(body["error"]?["status"] == "INVALID_ARGUMENT")
        }
    }

    @Test func parsesMethodTokens() {
        #expect(HTTPMethod("PATCH") == .patch)
        #expect(HTTPMethod("get") == .other("get"))
        #expect(HTTPMethod("PROPFIND").rawValue == "PROPFIND")
    }
}

@Suite struct ResponseTests {
    @Test func buildsJSONResponsesThatNoCacheKeeps() throws {
        let response = Response.json(["ok": true], status: .created)
        #expect(response.status == .created)
        #expect(response.headers["content-type"] == "application/json; charset=UTF-8")
        #expect(response.headers["cache-control"] == "no-store")
        #expect(response.body == Array(#"{"ok":true}"#.utf8))
    }

    @Test func forgetsItsFixedWireFormWhenChanged() {
        let fixed = Response.json(["ok": true]).fixed()
        #expect(fixed.wireForm != nil)
        var changed = fixed
        changed.headers.add("Access-Control-Allow-Origin", "*")
        #expect(changed.wireForm == nil)
        var restatused = fixed
        restatused.status = .created
        #expect(restatused.wireForm == nil)
        var rebodied = fixed
        rebodied.body = []
        #expect(rebodied.wireForm == nil)
        #expect(Response.json(["ok": true]).wireForm == nil)
    }

    @Test func buildsTextHTMLRedirectAndEmptyResponses() {
        #expect(Response.text("hi").headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(Response.html("<p>").headers["Content-Type"] == "text/html; charset=utf-8")
        let redirect = Response.redirect(to: "https://example.com/done", status: .seeOther)
        #expect(redirect.status == 303)
        #expect(redirect.headers["location"] == "https://example.com/done")
        #expect(Response.empty().status == .noContent)
        #expect(Response.empty().body.isEmpty)
    }
}

@Suite struct GoogleAPIErrorTests {
    @Test func rendersTheFullEnvelope() {
        let error = GoogleAPIError(code: .badRequest, message: "EMAIL_NOT_FOUND", status: .invalidArgument)
        #expect(
            String(decoding: error.body, as: UTF8.self)
                == #"{"error":{"code":400,"message":"EMAIL_NOT_FOUND","errors":[{"message":"EMAIL_NOT_FOUND","domain":"global","reason":"invalid"}],"status":"INVALID_ARGUMENT"}}"#
        )
    }

    @Test func rendersTheIdentityToolkitShapeWithoutStatus() {
        let error = GoogleAPIError.invalidArgument("WEAK_PASSWORD : Password should be at least 6 characters")
            .withoutStatus()
        let text = String(decoding: error.body, as: UTF8.self)
        #expect(text.contains(#""errors":[{"#))
        #expect(!text.contains("status"))
    }

    @Test func rendersTheInstallationsShapeWithoutTheErrorsList() {
        let error = GoogleAPIError.notFound("Requested entity was not found.").withoutErrorsList()
        #expect(
            String(decoding: error.body, as: UTF8.self)
                == #"{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND"}}"#
        )
    }

    @Test func mapsStatusesToHTTPCodes() {
        #expect(GoogleAPIError.unauthenticated("x").code == 401)
        #expect(GoogleAPIError.permissionDenied("x").code == 403)
        #expect(GoogleAPIError.alreadyExists("x").code == 409)
        #expect(GoogleAPIError.resourceExhausted("TOO_MANY_ATTEMPTS_TRY_LATER").code == 429)
        #expect(GoogleAPIError.failedPrecondition("x").code == 400)
        #expect(GoogleAPIError.internal().code == 500)
        #expect(GoogleAPIError.unavailable("x").code == 503)
    }

    @Test func becomesAJSONResponseWithItsCode() throws {
        let response = GoogleAPIError(
            code: 401,
            message: "INVALID_ID_TOKEN",
            status: .unauthenticated,
            reason: "authError"
        ).response()
        #expect(response.status == .unauthorized)
        let body = try JSONValue.parse(response.body)
        #expect(body["error"]?["errors"]?[0]?["reason"] == "authError")
        #expect(body["error"]?["code"] == 401)
    }

    @Test func escapesMessages() throws {
        let error = GoogleAPIError.invalidArgument("bad \"value\"\n")
        #expect(try JSONValue.parse(error.body)["error"]?["message"] == "bad \"value\"\n")
    }
}
