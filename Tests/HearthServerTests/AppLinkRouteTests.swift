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
