import HearthBase
import HearthCore
import HearthHTTP
import HearthServer
import Testing

@Suite("Association files served per link domain")
struct AssociationFileRouteTests {
    /// The application with a second project of two apps per platform on two link domains.
    func application() throws -> TestApplication {
        let app = try TestApplication()
        _ = try app.application.projects.save(
            Project(
                id: "two-apps",
                number: "200000000000",
                apiKeys: ["two-key"],
                apps: [
                    App(id: "1:200000000000:ios:01", platform: .ios, bundleID: "org.example.one", teamID: "TEAM111111"),
                    App(id: "1:200000000000:ios:02", platform: .ios, bundleID: "org.example.two", teamID: "TEAM222222"),
                    App(
                        id: "1:200000000000:android:01",
                        platform: .android,
                        packageName: "org.example.one",
                        sha256CertificateFingerprints: [
                            "AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99"
                        ]
                    ),
                    App(
                        id: "1:200000000000:android:02",
                        platform: .android,
                        packageName: "org.example.two",
                        sha256CertificateFingerprints: [
                            "11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00"
                        ]
                    ),
                ],
                linkDomains: ["links.example.org", "go.example.org"]
            )
        )
        return app
    }

    @Test("the seed's link domain serves both files as application/json with a 200")
    func seedFiles() throws {
        let app = try application()
        let apple = app.send(.get, AssociationFiles.applePath, headers: [("Host", "custom-domain.com")])
        #expect(apple.status == 200)
        #expect(apple.header("content-type") == "application/json")
        #expect(apple.header("location") == nil)
        #expect(apple.json == AssociationFiles(project: DevelopmentSeed.project).appleAppSiteAssociation)
        #expect(apple.json["applinks"]?["details"]?[0]?["appIDs"] == ["ABCDE12345.com.example.ios"])

        let android = app.send(.get, AssociationFiles.androidPath, headers: [("Host", "CUSTOM-domain.com:443")])
        #expect(android.status == 200)
        #expect(android.header("content-type") == "application/json")
        #expect(android.json[0]?["target"]?["package_name"] == "com.example.android")
    }

    @Test("each link domain of a configured project serves that project's two apps per platform")
    func configuredProject() throws {
        let app = try application()
        for domain in ["links.example.org", "go.example.org"] {
            let apple = app.send(.get, AssociationFiles.applePath, headers: [("Host", domain)])
            let appIDs = apple.json["applinks"]?["details"]?.arrayValue?.map { $0["appID"] }
            #expect(appIDs == ["TEAM111111.org.example.one", "TEAM222222.org.example.two"])
            let android = app.send(.get, AssociationFiles.androidPath, headers: [("Host", domain)])
            #expect(
                android.json.arrayValue?.map { $0["target"]?["package_name"] } == [
                    "org.example.one", "org.example.two",
                ]
            )
        }
    }

    @Test("a host that is no project's link domain gets a 404, and so does a request without Host")
    func unknownHost() throws {
        let app = try application()
        for headers in [[("Host", "127.0.0.1:9099")], [("Host", "evil.example.net")], []] {
            #expect(app.send(.get, AssociationFiles.applePath, headers: headers).status == 404)
            #expect(app.send(.get, AssociationFiles.androidPath, headers: headers).status == 404)
        }
    }
}

@Suite("The link-domain landing page")
struct LinkLandingRouteTests {
    func page(_ app: TestApplication, _ query: String, host: String = "custom-domain.com") -> TestAnswer {
        app.send(.get, "/__/auth/links?\(query)", headers: [("Host", host), ("Accept", "text/html")])
    }

    @Test("an authorized continue URL and the project's own action link are forwarded with a 302")
    func forwards() throws {
        let app = try TestApplication()
        let forward = page(app, "link=https%3A%2F%2Fwww.example.com%2Fdone")
        #expect(forward.status == 302)
        #expect(forward.header("location") == "https://www.example.com/done")
        #expect(forward.header("referrer-policy") == "no-referrer")
        let action = "http://127.0.0.1:9099/__/auth/action?apiKey%3Ddemo-api-key%26mode%3DsignIn%26oobCode%3DC"
        #expect(
            page(app, "link=\(action)").header("location")
                == "http://127.0.0.1:9099/__/auth/action?apiKey=demo-api-key&mode=signIn&oobCode=C"
        )
    }

    @Test("a foreign or hostile payload gets a 400 page with the security headers and no trace of it")
    func refuses() throws {
        let app = try TestApplication()
        for payload in [
            "https%3A%2F%2Fevil.example.net%2Fphish", "javascript%3Aalert(evil)", "%2F%2Fevil.example.net%2F",
            "https%3A%2F%2Fwww.example.com%40evil.example.net%2F", "https%3A%5C%5Cevil.example.net", "",
        ] {
            for host in ["custom-domain.com", "127.0.0.1:9099"] {
                let answer = page(app, "link=\(payload)", host: host)
                #expect(answer.status == 400, "\(payload)")
                #expect(answer.header("content-type") == "text/html; charset=utf-8")
                #expect(answer.header("content-security-policy")?.contains("frame-ancestors 'none'") == true)
                #expect(answer.header("cache-control")?.contains("no-store") == true)
                #expect(answer.header("x-content-type-options") == "nosniff")
                #expect(answer.text.contains("data-outcome=\"refused\""))
                #expect(!answer.text.contains("evil"), "\(payload)")
            }
        }
    }

    @Test("a link sent for the seed's apps offers them, in Persian right to left when asked")
    func offers() throws {
        let app = try TestApplication()
        let answer = page(
            app,
            "link=https%3A%2F%2Fwww.example.com%2F&iosBundleId=com.example.ios&androidPackageName=com.example.android&androidMinimumVersion=12&lang=fa"
        )
        #expect(answer.status == 200)
        #expect(answer.text.contains("dir=\"rtl\""))
        #expect(answer.text.contains("data-outcome=\"offer\""))
        #expect(answer.text.contains("id=\"open-link\" href=\"https://www.example.com/\""))
        #expect(answer.text.contains("id=\"app-store\" href=\"https://apps.apple.com/app/id1234567890\""))
        #expect(
            answer.text.contains(
                "id=\"play-store\" href=\"https://play.google.com/store/apps/details?id=com.example.android\""
            )
        )
    }
}
