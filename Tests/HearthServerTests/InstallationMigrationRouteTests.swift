import HearthBase
import HearthCore
import HearthCrypto
import HearthHTTP
import Testing

/// Clients migrating from Instance ID, as the iOS and Android SDKs send their create
/// requests, and the Admin SDKs' deletion of either shape of ID.
@Suite("Instance ID migration, in-process")
struct InstallationMigrationRouteTests {
    private static let iosApp = DevelopmentSeed.iosAppID
    private static let androidApp = DevelopmentSeed.androidAppID

    private static func legacyID() -> String {
        var bytes = SecureRandom.bytes(count: 8)
        bytes[0] = 0b0111_0000 | (bytes[0] & 0x0F)
        return Base64URL.encode(bytes)
    }

    /// The iOS SDK's create: a trailing slash, its headers, `fid` the legacy ID.
    private func iosCreate(_ app: TestApplication, fid: String, migrationToken: String?) -> TestAnswer {
        var headers = [
            ("X-Goog-Api-Key", TestApplication.apiKey),
            ("X-Ios-Bundle-Identifier", "com.example.ios"),
            ("X-firebase-client", "H4sIAAAAAAAAA6tWKkktLlGyUlAqS8wpTVWqBQBnU4ZVEwAAAA"),
        ]
        if let migrationToken { headers.append(("x-goog-fis-ios-iid-migration-auth", migrationToken)) }
        return app.send(
            .post,
            "/v1/projects/\(TestApplication.projectID)/installations/",
            json: [
                "fid": .string(fid), "authVersion": "FIS_v2", "appId": .string(Self.iosApp),
                "sdkVersion": "i:11.0.0",
            ],
            headers: headers
        )
    }

    /// The Android SDK's create (its body arrives inflated: gzip is the server's layer).
    private func androidCreate(_ app: TestApplication, fid: String, migrationToken: String?) -> TestAnswer {
        var headers = [
            ("x-goog-api-key", TestApplication.apiKey),
            ("X-Android-Package", "com.example.android"),
            ("X-Android-Cert", "0123456789ABCDEF0123456789ABCDEF01234567"),
            ("Accept", "application/json"),
            ("Cache-Control", "no-cache"),
        ]
        if let migrationToken { headers.append(("x-goog-fis-android-iid-migration-auth", migrationToken)) }
        let body = #"{"fid":"\#(fid)","appId":"\#(Self.androidApp)","authVersion":"FIS_v2","sdkVersion":"a:18.0.0"}"#
        return app.send(
            .post,
            "/v1/projects/\(TestApplication.projectID)/installations",
            rawBody: Array(body.utf8),
            headers: headers + [("Content-Type", "application/json")]
        )
    }

    private func generate(_ app: TestApplication, fid: String, refreshToken: String) -> TestAnswer {
        app.send(
            .post,
            "/v1/projects/\(TestApplication.projectID)/installations/\(fid)/authTokens:generate",
            json: ["installation": ["sdkVersion": "i:11.0.0"]],
            headers: [("x-goog-api-key", TestApplication.apiKey), ("Authorization", "FIS_v2 \(refreshToken)")]
        )
    }

    private func adminDelete(_ app: TestApplication, _ id: String) -> TestAnswer {
        app.admin(.delete, "/v1/project/\(TestApplication.projectID)/instanceId/\(id)")
    }

    @Test("an iOS and an Android client keep their legacy IDs, get tokens for them, and an admin deletes them")
    func migratingClientsKeepTheirIDs() throws {
        let app = try TestApplication()
        let iosID = Self.legacyID()
        let androidID = Self.legacyID()
        let ios = iosCreate(app, fid: iosID, migrationToken: "\(iosID):APA91bGaLegacyIIDDefaultTokenOfTheDevice")
        let android = androidCreate(app, fid: androidID, migrationToken: "\(androidID):APA91bEwLegacyWildcardToken")
        for (answer, id) in [(ios, iosID), (android, androidID)] {
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["fid"]?.stringValue == id)
            #expect(answer.json["name"]?.stringValue == "projects/100000000000/installations/\(id)")
            #expect(answer.json["authToken"]?["expiresIn"]?.stringValue == "604800s")
            let refreshToken = try #require(answer.json["refreshToken"]?.stringValue)
            let generated = generate(app, fid: id, refreshToken: refreshToken)
            #expect(generated.status == 200, "\(generated.text)")
            let token = try #require(generated.json["token"]?.stringValue)
            let verified = app.admin(
                .post,
                "/v1/projects/\(TestApplication.projectID)/installations:verifyToken",
                ["token": .string(token)]
            )
            #expect(verified.json["fid"]?.stringValue == id)

            let deleted = adminDelete(app, id)
            #expect(deleted.status == 200)
            #expect(deleted.text == "{}")
            #expect(generate(app, fid: id, refreshToken: refreshToken).status == 404)
            let again = adminDelete(app, id)
            #expect(again.status == 409)
            #expect(again.errorMessage == "Already deleted.")
        }
    }

    @Test("a legacy ID without the migration header, or with a token of another ID, gets a new FID")
    func unprovenLegacyIDsAreReplaced() throws {
        let app = try TestApplication()
        let id = Self.legacyID()
        for answer in [
            iosCreate(app, fid: id, migrationToken: nil),
            androidCreate(app, fid: id, migrationToken: nil),
            iosCreate(app, fid: id, migrationToken: ""),
            androidCreate(app, fid: id, migrationToken: "\(Self.legacyID()):APA91bAnotherDevicesToken"),
        ] {
            #expect(answer.status == 200)
            let fid = try #require(answer.json["fid"]?.stringValue)
            #expect(fid != id)
            #expect(FID.isWellFormed(fid))
        }
        #expect(adminDelete(app, id).status == 404)
    }

    @Test("the admin deletion answers 404 for an unknown ID of either shape and 400 only for neither")
    func adminDeletionOfEitherShape() throws {
        let app = try TestApplication()
        for unknown in ["dy1ebDcq-R0", FID.generate()] {
            let answer = adminDelete(app, unknown)
            #expect(answer.status == 404, "\(unknown)")
            #expect(answer.errorMessage == "Failed to find the instance ID.")
            #expect(answer.json["error"]?["status"]?.stringValue == "NOT_FOUND")
        }
        for malformed in ["dy1ebDcq-R1", "not-a-fid", "cGVzdC1maWQtMTIzNDU2Nzg"] {
            let answer = adminDelete(app, malformed)
            #expect(answer.status == 400, "\(malformed)")
            #expect(answer.errorMessage == "Malformed instance ID argument.")
        }
        // A registered 22-character FID is deleted as before.
        let created = app.send(
            .post,
            "/v1/projects/\(TestApplication.projectID)/installations",
            json: ["fid": .string(FID.generate()), "appId": .string(Self.iosApp), "authVersion": "FIS_v2"],
            headers: [("x-goog-api-key", TestApplication.apiKey)]
        )
        let fid = try #require(created.json["fid"]?.stringValue)
        #expect(adminDelete(app, fid).status == 200)
    }
}
