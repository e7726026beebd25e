import Foundation
import HearthCrypto
import HearthTestSupport
import Testing

/// Firebase Installations v1 through the real binary, as each client sends it.
@Suite struct InstallationsProtocolTests {
    @Test func createAnswersExactly200WithNameFIDRefreshTokenAndAnES256TokenOfTheRightShape() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        let fid = generateClientFID()
        let response = try client.json(
            "POST",
            "/v1/projects/demo-project/installations",
            ["fid": fid, "appId": Seed.webApp, "authVersion": "FIS_v2", "sdkVersion": "w:0.6.24"],
            headers: [("x-goog-api-key", Seed.apiKey)]
        )
        #expect(response.status == 200)
        #expect(response.json["fid"] as? String == fid)
        #expect(response.json["name"] as? String == "projects/\(Seed.number)/installations/\(fid)")
        let refresh = try #require(response.json["refreshToken"] as? String)
        #expect(refresh.count > 40)
        let authToken = try #require(response.json["authToken"] as? [String: Any])
        #expect(authToken["expiresIn"] as? String == "604800s")
        let token = try #require(authToken["token"] as? String)

        let (header, payload) = try jwtParts(token)
        #expect(header["alg"] as? String == "ES256")
        let kid = try #require(header["kid"] as? String)
        #expect(Set(payload.keys) == ["appId", "exp", "fid", "projectNumber", "iat"])
        #expect(payload["appId"] as? String == Seed.webApp)
        #expect(payload["fid"] as? String == fid)
        #expect((payload["projectNumber"] as? NSNumber)?.int64Value == 100_000_000_000)
        let exp = try #require((payload["exp"] as? NSNumber)?.int64Value)
        let iat = try #require((payload["iat"] as? NSNumber)?.int64Value)
        #expect(exp - iat == 604_800)

        // The signature verifies with the published key named by `kid`.
        let jwks = try client.request("GET", "/v1/projects/demo-project/jwks")
        let keys = try JSONDecoder().decode(JSONWebKeySet.self, from: Data(jwks.body))
        let jwk = try #require(keys.keys.first { $0.kid == kid })
        let verified = try JWT.verify(token, keys: { _ in try? JWT.VerificationKey(jwk: jwk) }, now: iat)
        #expect(verified.claims.exp == exp)
    }

    @Test func theClientsQuirksAreAcceptedAndAFIDIsAlwaysAnswered() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        let body: (Any?) -> [String: Any] = { fid in
            var body: [String: Any] = ["appId": Seed.iosApp, "authVersion": "FIS_v2", "sdkVersion": "i:11.0.0"]
            if let fid { body["fid"] = fid }
            return body
        }
        // iOS: trailing slash, header casing, `"fid": ""`.
        let ios = try client.json(
            "POST",
            "/firebaseinstallations.googleapis.com/v1/projects/demo-project/installations/",
            body(""),
            headers: [("X-Goog-Api-Key", Seed.apiKey), ("X-Ios-Bundle-Identifier", "com.example.ios")]
        )
        #expect(ios.status == 200)
        #expect(Self.isServerMadeFID(ios.json["fid"]))

        // Android: gzip body, `"fid": null`, project number in the path, extra headers.
        let androidBody = try JSONSerialization.data(withJSONObject: [
            "fid": NSNull(), "appId": Seed.androidApp, "authVersion": "FIS_v2", "sdkVersion": "a:18.0.0",
        ])
        let android = try client.request(
            "POST",
            "/firebaseinstallations.googleapis.com/v1/projects/\(Seed.number)/installations",
            headers: [
                ("Content-Type", "application/json"), ("Content-Encoding", "gzip"), ("Accept", "application/json"),
                ("Cache-Control", "no-cache"), ("x-goog-api-key", Seed.apiKey),
                ("X-Android-Package", "com.example.android"),
            ],
            body: try gzip([UInt8](androidBody))
        )
        #expect(android.status == 200)
        #expect(Self.isServerMadeFID(android.json["fid"]))

        // pyfm: a 24-character standard-base64 FID with padding, key in the query.
        let padded = "dGVzdC1maWQtMTIzNDU2Nzg="
        let pyfm = try client.json("POST", "/v1/projects/demo-project/installations?key=\(Seed.apiKey)", body(padded))
        #expect(pyfm.status == 200)
        #expect(Self.isServerMadeFID(pyfm.json["fid"]))
        #expect(pyfm.json["fid"] as? String != padded)

        // No fid at all, and snake_case keys.
        let bare = try client.json(
            "POST",
            "/v1/projects/demo-project/installations",
            ["app_id": Seed.webApp, "auth_version": "FIS_v2"],
            headers: [("x-goog-api-key", Seed.apiKey)]
        )
        #expect(bare.status == 200)
        #expect(Self.isServerMadeFID(bare.json["fid"]))

        let fids = [ios, android, pyfm, bare].compactMap { $0.json["fid"] as? String }
        #expect(Set(fids).count == 4)
        #expect(Set(try client.storedInstallations().compactMap { $0["fid"] as? String }) == Set(fids))
    }

    @Test func generateAnswersATokenAndExpiresInForEveryClientsBody() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        let installation = try client.register()
        let bodies: [Any?] = [
            ["installation": ["sdkVersion": "w:0.6.24", "appId": Seed.webApp]],
            ["installation": ["sdkVersion": "a:18.0.0"]],
            nil,
        ]
        for body in bodies {
            let response = try client.json(
                "POST",
                "/firebaseinstallations.googleapis.com/v1/projects/demo-project/installations/\(installation.fid)/authTokens:generate/",
                body,
                headers: [("x-goog-api-key", Seed.apiKey), ("Authorization", "FIS_v2 \(installation.refreshToken)")]
            )
            #expect(response.status == 200)
            #expect(Set(response.json.keys) == ["token", "expiresIn"])
            #expect(response.json["expiresIn"] as? String == "604800s")
            let token = try #require(response.json["token"] as? String)
            #expect(try jwtParts(token).payload["fid"] as? String == installation.fid)
        }
        // The optional sdkVersion updates the record (off the request's path, so shortly after).
        #expect(
            try eventually {
                try client.admin("GET", "installations/\(installation.fid)").json["sdkVersion"] as? String == "a:18.0.0"
            }
        )
    }

    @Test func aBadRefreshTokenIs401AndAnUnknownFIDIs404() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        let installation = try client.register()
        let bad = try client.generateToken(installation, refreshToken: "3_not-the-token")
        #expect(bad.status == 401)
        #expect(bad.errorStatus == "UNAUTHENTICATED")
        let unknown = try client.generateToken(Registered(fid: generateClientFID(), refreshToken: "3_x", token: ""))
        #expect(unknown.status == 404)
        #expect(unknown.errorStatus == "NOT_FOUND")
        #expect((unknown.json["error"] as? [String: Any])?["code"] as? Int == 404)
    }

    @Test func deleteAnswersExactly200WithAnEmptyObjectAndThenTheFIDIsGone() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        let installation = try client.register()
        // iOS: trailing slash and a `{}` body.
        let deleted = try client.request(
            "DELETE",
            "/firebaseinstallations.googleapis.com/v1/projects/demo-project/installations/\(installation.fid)/",
            headers: [
                ("Content-Type", "application/json"), ("X-Goog-Api-Key", Seed.apiKey),
                ("Authorization", "FIS_v2 \(installation.refreshToken)"),
            ],
            body: Array("{}".utf8)
        )
        #expect(deleted.status == 200)
        #expect(deleted.text == "{}")
        #expect(try client.generateToken(installation).status == 404)
        let again = try client.deleteInstallation(installation)
        #expect(again.status == 404)
        #expect(again.errorStatus == "NOT_FOUND")
        let shown = try client.admin("GET", "installations/\(installation.fid)")
        #expect(shown.json["state"] as? String == "DELETED")
        #expect(shown.json["cause"] as? String == "client")
    }

    @Test func registeringAgainIsIdempotentForTheSameAppAndRefusedForAnotherApp() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        let first = try client.register(app: Seed.webApp)
        let again = try client.register(fid: first.fid, app: Seed.webApp)
        #expect(again.fid == first.fid)
        #expect(try client.generateToken(again).status == 200)
        // The lost answer's refresh token is replaced.
        #expect(try client.generateToken(first).status == 401)

        let other = try client.register(fid: first.fid, app: Seed.androidApp)
        #expect(other.fid != first.fid)
        #expect(try client.admin("GET", "installations/\(first.fid)").json["appId"] as? String == Seed.webApp)
        #expect(try client.generateToken(again).status == 200)

        // A deleted FID is never handed out again.
        #expect(try client.deleteInstallation(again).status == 200)
        let afterDeletion = try client.register(fid: first.fid, app: Seed.webApp)
        #expect(afterDeletion.fid != first.fid)
        #expect(try client.storedInstallations().count == 2)
    }

    @Test func theTokenLifetimeIsAPerProjectSetting() throws {
        let server = try HearthServerProcess.withTwoProjects()
        let client = server.client()
        let response = try client.json(
            "POST",
            "/v1/projects/\(Seed.otherProject)/installations",
            ["fid": generateClientFID(), "appId": Seed.otherApp, "authVersion": "FIS_v2", "sdkVersion": "w:1"],
            headers: [("x-goog-api-key", Seed.otherAPIKey)]
        )
        #expect(response.status == 200)
        let authToken = try #require(response.json["authToken"] as? [String: Any])
        #expect(authToken["expiresIn"] as? String == "\(Seed.otherTokenLifetime)s")
        let payload = try jwtParts(try #require(authToken["token"] as? String)).payload
        #expect((payload["projectNumber"] as? NSNumber)?.int64Value == 200_000_000_000)
        #expect(
            (payload["exp"] as! NSNumber).int64Value - (payload["iat"] as! NSNumber).int64Value
                == Int64(Seed.otherTokenLifetime)
        )
    }

    private static func isServerMadeFID(_ value: Any?) -> Bool {
        guard let fid = value as? String, fid.utf8.count == 22, let first = fid.first else { return false }
        return "cdef".contains(first) && fid.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }
}
