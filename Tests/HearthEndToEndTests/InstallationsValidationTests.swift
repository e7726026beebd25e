import Foundation
import HearthTestSupport
import Testing

/// Bad input on every installation route gets the right 4xx in the envelope, and nothing
/// stored changes.
@Suite struct InstallationsValidationTests {
    private struct Case {
        let name: String
        let method: String
        let path: String
        let headers: [(String, String)]
        let body: String?
        let status: Int
        let errorStatus: String
    }

    private func run(_ cases: [Case], on client: TestHTTPClient) throws {
        for item in cases {
            let response = try client.request(
                item.method,
                item.path,
                headers: [("Content-Type", "application/json")] + item.headers,
                body: item.body.map { Array($0.utf8) }
            )
            #expect(response.status == item.status, "\(item.name): \(response.status) \(response.text)")
            #expect(response.errorStatus == item.errorStatus, "\(item.name): \(response.text)")
            #expect((response.json["error"] as? [String: Any])?["code"] as? Int == item.status, "\(item.name)")
            #expect(response.errorMessage?.isEmpty == false, "\(item.name)")
        }
    }

    @Test func badCreatesAreRefusedAndStoreNothing() throws {
        let server = try HearthServerProcess.withTwoProjects()
        let client = server.client()
        let key = ("x-goog-api-key", Seed.apiKey)
        let path = "/v1/projects/demo-project/installations"
        let good =
            #"{"fid":"\#(generateClientFID())","appId":"\#(Seed.webApp)","authVersion":"FIS_v2","sdkVersion":"w:1"}"#
        let cases = [
            Case(
                name: "bad JSON",
                method: "POST",
                path: path,
                headers: [key],
                body: #"{"appId": "#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "not an object",
                method: "POST",
                path: path,
                headers: [key],
                body: "[1]",
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "no appId",
                method: "POST",
                path: path,
                headers: [key],
                body: #"{"fid":""}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "appId not a string",
                method: "POST",
                path: path,
                headers: [key],
                body: #"{"appId":7}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "foreign app",
                method: "POST",
                path: path,
                headers: [key],
                body: #"{"appId":"\#(Seed.otherApp)"}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "unknown app",
                method: "POST",
                path: path,
                headers: [key],
                body: #"{"appId":"1:100000000000:web:ffff"}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "FIS_v1",
                method: "POST",
                path: path,
                headers: [key],
                body: #"{"appId":"\#(Seed.webApp)","authVersion":"FIS_v1"}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "sdkVersion not a string",
                method: "POST",
                path: path,
                headers: [key],
                body: #"{"appId":"\#(Seed.webApp)","sdkVersion":1}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "sdkVersion too long",
                method: "POST",
                path: path,
                headers: [key],
                body: #"{"appId":"\#(Seed.webApp)","sdkVersion":"\#(String(repeating: "v", count: 129))"}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "unknown project",
                method: "POST",
                path: "/v1/projects/no-such-project/installations",
                headers: [key],
                body: good,
                status: 404,
                errorStatus: "NOT_FOUND"
            ),
            Case(
                name: "no API key",
                method: "POST",
                path: path,
                headers: [],
                body: good,
                status: 403,
                errorStatus: "PERMISSION_DENIED"
            ),
            Case(
                name: "unknown API key",
                method: "POST",
                path: path,
                headers: [("x-goog-api-key", "nope")],
                body: good,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "other project's API key",
                method: "POST",
                path: path,
                headers: [("x-goog-api-key", Seed.otherAPIKey)],
                body: good,
                status: 403,
                errorStatus: "PERMISSION_DENIED"
            ),
        ]
        try run(cases, on: client)
        #expect(try client.storedInstallations().isEmpty)
    }

    @Test func badTokenRequestsAreRefusedAndLeaveTheInstallationAsItWas() throws {
        let server = try HearthServerProcess.withTwoProjects()
        let client = server.client()
        let installation = try client.register()
        let before = try client.admin("GET", "installations/\(installation.fid)").json
        let path = "/v1/projects/demo-project/installations/\(installation.fid)/authTokens:generate"
        let key = ("x-goog-api-key", Seed.apiKey)
        let auth = ("Authorization", "FIS_v2 \(installation.refreshToken)")
        let cases = [
            Case(
                name: "bad JSON",
                method: "POST",
                path: path,
                headers: [key, auth],
                body: "{",
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "installation not an object",
                method: "POST",
                path: path,
                headers: [key, auth],
                body: #"{"installation":"x"}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "sdkVersion not a string",
                method: "POST",
                path: path,
                headers: [key, auth],
                body: #"{"installation":{"sdkVersion":[]}}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "foreign app",
                method: "POST",
                path: path,
                headers: [key, auth],
                body: #"{"installation":{"appId":"\#(Seed.otherApp)","sdkVersion":"x"}}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "no Authorization",
                method: "POST",
                path: path,
                headers: [key],
                body: "{}",
                status: 401,
                errorStatus: "UNAUTHENTICATED"
            ),
            Case(
                name: "Bearer instead of FIS_v2",
                method: "POST",
                path: path,
                headers: [key, ("Authorization", "Bearer \(installation.refreshToken)")],
                body: "{}",
                status: 401,
                errorStatus: "UNAUTHENTICATED"
            ),
            Case(
                name: "wrong refresh token",
                method: "POST",
                path: path,
                headers: [key, ("Authorization", "FIS_v2 3_wrong")],
                body: #"{"installation":{"sdkVersion":"x"}}"#,
                status: 401,
                errorStatus: "UNAUTHENTICATED"
            ),
            Case(
                name: "unknown project",
                method: "POST",
                path: "/v1/projects/nope-project/installations/\(installation.fid)/authTokens:generate",
                headers: [key, auth],
                body: "{}",
                status: 404,
                errorStatus: "NOT_FOUND"
            ),
            Case(
                name: "other project",
                method: "POST",
                path: "/v1/projects/\(Seed.otherProject)/installations/\(installation.fid)/authTokens:generate",
                headers: [("x-goog-api-key", Seed.otherAPIKey), auth],
                body: "{}",
                status: 404,
                errorStatus: "NOT_FOUND"
            ),
            Case(
                name: "no API key",
                method: "POST",
                path: path,
                headers: [auth],
                body: "{}",
                status: 403,
                errorStatus: "PERMISSION_DENIED"
            ),
            Case(
                name: "unknown API key",
                method: "POST",
                path: path,
                headers: [("x-goog-api-key", "nope"), auth],
                body: "{}",
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "malformed FID",
                method: "POST",
                path: "/v1/projects/demo-project/installations/abc/authTokens:generate",
                headers: [key, auth],
                body: "{}",
                status: 404,
                errorStatus: "NOT_FOUND"
            ),
        ]
        try run(cases, on: client)
        let after = try client.admin("GET", "installations/\(installation.fid)").json
        #expect(after["appId"] as? String == before["appId"] as? String)
        #expect(after["sdkVersion"] as? String == before["sdkVersion"] as? String)
        #expect(after["lastSeenTime"] as? String == before["lastSeenTime"] as? String)
        #expect(try client.generateToken(installation).status == 200)
    }

    @Test func badDeletesAreRefusedAndDeleteNothing() throws {
        let server = try HearthServerProcess.withTwoProjects()
        let client = server.client()
        let installation = try client.register()
        let path = "/v1/projects/demo-project/installations/\(installation.fid)"
        let key = ("x-goog-api-key", Seed.apiKey)
        let auth = ("Authorization", "FIS_v2 \(installation.refreshToken)")
        let adminPath = "/v1/project/demo-project/instanceId/\(installation.fid)"
        let cases = [
            Case(
                name: "bad JSON",
                method: "DELETE",
                path: path,
                headers: [key, auth],
                body: "{]",
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "no Authorization",
                method: "DELETE",
                path: path,
                headers: [key],
                body: nil,
                status: 401,
                errorStatus: "UNAUTHENTICATED"
            ),
            Case(
                name: "wrong refresh token",
                method: "DELETE",
                path: path,
                headers: [key, ("Authorization", "FIS_v2 3_wrong")],
                body: nil,
                status: 401,
                errorStatus: "UNAUTHENTICATED"
            ),
            Case(
                name: "unknown project",
                method: "DELETE",
                path: "/v1/projects/nope-project/installations/\(installation.fid)",
                headers: [key, auth],
                body: nil,
                status: 404,
                errorStatus: "NOT_FOUND"
            ),
            Case(
                name: "other project's API key",
                method: "DELETE",
                path: path,
                headers: [("x-goog-api-key", Seed.otherAPIKey), auth],
                body: nil,
                status: 403,
                errorStatus: "PERMISSION_DENIED"
            ),
            Case(
                name: "admin: no credential",
                method: "DELETE",
                path: adminPath,
                headers: [],
                body: nil,
                status: 401,
                errorStatus: "UNAUTHENTICATED"
            ),
            Case(
                name: "admin: bad credential",
                method: "DELETE",
                path: adminPath,
                headers: [("Authorization", "Bearer wrong")],
                body: nil,
                status: 401,
                errorStatus: "UNAUTHENTICATED"
            ),
            Case(
                name: "admin: seed credential on another project",
                method: "DELETE",
                path: "/v1/project/\(Seed.otherProject)/instanceId/\(installation.fid)",
                headers: [Seed.admin],
                body: nil,
                status: 401,
                errorStatus: "UNAUTHENTICATED"
            ),
            Case(
                name: "admin: malformed FID",
                method: "DELETE",
                path: "/v1/project/demo-project/instanceId/not-a-fid",
                headers: [Seed.admin],
                body: nil,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "admin: unknown project",
                method: "DELETE",
                path: "/v1/project/nope-project/instanceId/\(installation.fid)",
                headers: [Seed.admin],
                body: nil,
                status: 404,
                errorStatus: "NOT_FOUND"
            ),
        ]
        try run(cases, on: client)
        #expect(try client.admin("GET", "installations/\(installation.fid)").json["state"] as? String == "ACTIVE")
        #expect(try client.generateToken(installation).status == 200)
    }

    @Test func badAdminRequestsAreRefusedAndStoreNothing() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        let verify = "/v1/projects/demo-project/installations:verifyToken"
        let hooks = "/hearth/v1/projects/demo-project/installationWebhooks"
        let cases = [
            Case(
                name: "verify: no credential",
                method: "POST",
                path: verify,
                headers: [],
                body: #"{"token":"x"}"#,
                status: 401,
                errorStatus: "UNAUTHENTICATED"
            ),
            Case(
                name: "verify: bad JSON",
                method: "POST",
                path: verify,
                headers: [Seed.admin],
                body: "{",
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "verify: no token",
                method: "POST",
                path: verify,
                headers: [Seed.admin],
                body: "{}",
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "verify: garbage token",
                method: "POST",
                path: verify,
                headers: [Seed.admin],
                body: #"{"token":"a.b.c"}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "webhook: no credential",
                method: "POST",
                path: hooks,
                headers: [],
                body: #"{"url":"http://127.0.0.1:1/"}"#,
                status: 401,
                errorStatus: "UNAUTHENTICATED"
            ),
            Case(
                name: "webhook: bad JSON",
                method: "POST",
                path: hooks,
                headers: [Seed.admin],
                body: "{",
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "webhook: no url",
                method: "POST",
                path: hooks,
                headers: [Seed.admin],
                body: "{}",
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "webhook: not http",
                method: "POST",
                path: hooks,
                headers: [Seed.admin],
                body: #"{"url":"ftp://example.com/"}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "webhook: no host",
                method: "POST",
                path: hooks,
                headers: [Seed.admin],
                body: #"{"url":"http:///x"}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "webhook: percent-encoded host",
                method: "POST",
                path: hooks,
                headers: [Seed.admin],
                body: #"{"url":"https://%zz/"}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "webhook: invalid host",
                method: "POST",
                path: hooks,
                headers: [Seed.admin],
                body: #"{"url":"https://exa mple..com:99999/"}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "webhook: user information",
                method: "POST",
                path: hooks,
                headers: [Seed.admin],
                body: #"{"url":"https://user:pass@example.com/"}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "webhook: short secret",
                method: "POST",
                path: hooks,
                headers: [Seed.admin],
                body: #"{"url":"http://127.0.0.1:1/","secret":"short"}"#,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "webhook: unknown id",
                method: "DELETE",
                path: hooks + "/wh_nope",
                headers: [Seed.admin],
                body: nil,
                status: 404,
                errorStatus: "NOT_FOUND"
            ),
            Case(
                name: "list: bad page size",
                method: "GET",
                path: "/hearth/v1/projects/demo-project/installations?pageSize=0",
                headers: [Seed.admin],
                body: nil,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "list: bad page token",
                method: "GET",
                path: "/hearth/v1/projects/demo-project/installationTombstones?pageToken=bm9wZQ",
                headers: [Seed.admin],
                body: nil,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "deliveries: bad state",
                method: "GET",
                path: "/hearth/v1/projects/demo-project/installationDeliveries?state=lost",
                headers: [Seed.admin],
                body: nil,
                status: 400,
                errorStatus: "INVALID_ARGUMENT"
            ),
            Case(
                name: "show: unknown FID",
                method: "GET",
                path: "/hearth/v1/projects/demo-project/installations/\(generateClientFID())",
                headers: [Seed.admin],
                body: nil,
                status: 404,
                errorStatus: "NOT_FOUND"
            ),
        ]
        try run(cases, on: client)
        #expect((try client.admin("GET", "installationWebhooks").json["webhooks"] as? [Any])?.isEmpty == true)
    }
}
