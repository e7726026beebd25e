import HearthBase
import HearthWire
import Testing

@testable import HearthCore

@Suite("Association files")
struct AssociationFilesTests {
    /// A configured project with two iOS and two Android apps, one of each unassociable.
    static let twoApps = Project(
        id: "two-apps",
        number: "200000000000",
        apiKeys: ["two-key"],
        apps: [
            App(id: "1:200000000000:ios:01", platform: .ios, bundleID: "org.example.one", teamID: "TEAM111111"),
            App(id: "1:200000000000:ios:02", platform: .ios, bundleID: "org.example.two", teamID: "TEAM222222"),
            App(id: "1:200000000000:ios:03", platform: .ios, bundleID: "org.example.noteam"),
            App(
                id: "1:200000000000:android:01",
                platform: .android,
                packageName: "org.example.one",
                sha256CertificateFingerprints: [
                    "AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99",
                    "11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00",
                ]
            ),
            App(id: "1:200000000000:android:02", platform: .android, packageName: "org.example.two"),
            App(id: "1:200000000000:web:01", platform: .web),
        ],
        linkDomains: ["links.example.org", "go.example.org"]
    )

    @Test("the seed's iOS app is claimed in the components form and the paths form")
    func seedApple() throws {
        let file = AssociationFiles(project: DevelopmentSeed.project).appleAppSiteAssociation
        let details = try #require(file["applinks"]?["details"]?.arrayValue)
        #expect(file["applinks"]?["apps"] == .array([]))
        #expect(details.count == 1)
        #expect(details[0]["appIDs"] == ["ABCDE12345.com.example.ios"])
        #expect(details[0]["components"]?[0]?["/"] == "/__/auth/links*")
        #expect(details[0]["appID"] == "ABCDE12345.com.example.ios")
        #expect(details[0]["paths"] == ["/__/auth/links*"])
    }

    @Test("the seed's Android app is stated with its fingerprint")
    func seedAndroid() throws {
        let statements = try #require(AssociationFiles(project: DevelopmentSeed.project).assetLinks.arrayValue)
        #expect(statements.count == 1)
        #expect(statements[0]["relation"] == ["delegate_permission/common.handle_all_urls"])
        #expect(statements[0]["target"]?["namespace"] == "android_app")
        #expect(statements[0]["target"]?["package_name"] == "com.example.android")
        #expect(
            statements[0]["target"]?["sha256_cert_fingerprints"] == [
                "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
            ]
        )
    }

    @Test("a project with two apps per platform lists each, and leaves out an iOS app without a team ID")
    func twoAppsEach() throws {
        let files = AssociationFiles(project: Self.twoApps)
        #expect(files.appleAppIDs == ["TEAM111111.org.example.one", "TEAM222222.org.example.two"])
        let details = try #require(files.appleAppSiteAssociation["applinks"]?["details"]?.arrayValue)
        #expect(details.map { $0["appID"] } == ["TEAM111111.org.example.one", "TEAM222222.org.example.two"])
        let statements = try #require(files.assetLinks.arrayValue)
        #expect(statements.map { $0["target"]?["package_name"] } == ["org.example.one", "org.example.two"])
        #expect(statements[0]["target"]?["sha256_cert_fingerprints"]?.arrayValue?.count == 2)
        #expect(statements[1]["target"]?["sha256_cert_fingerprints"] == .array([]))
    }

    @Test("the Host header loses its port before the link domain is looked up")
    func linkDomainHost() {
        #expect(AppLinkHost.name(of: "custom-domain.com:443") == "custom-domain.com")
        #expect(AppLinkHost.name(of: "[::1]:8080") == "[::1]")
        #expect(AppLinkHost.name(of: "custom-domain.com") == "custom-domain.com")
    }
}

@Suite("The link-domain landing decision")
struct LinkLandingTests {
    static let publicURL = "http://127.0.0.1:9099"
    let policy = LinkLandingPolicy(project: DevelopmentSeed.project, publicURL: Self.publicURL)

    static let actionLink =
        "http://127.0.0.1:9099/__/auth/action?apiKey=demo-api-key&mode=signIn&oobCode=CODE&continueUrl=https://www.example.com/"

    @Test("Hearth's own action link of the project is forwarded")
    func ownActionLink() {
        #expect(policy.decide(payload: Self.actionLink) == .forward(Self.actionLink))
    }

    @Test("an action link with another project's API key, an unknown mode or no code is not the project's")
    func actionLinkOfAnotherProject() {
        var project = DevelopmentSeed.project
        project.authorizedDomains = ["www.example.com"]  // the public host is no continue URL here
        let policy = LinkLandingPolicy(project: project, publicURL: Self.publicURL)
        #expect(policy.decide(payload: Self.actionLink) == .forward(Self.actionLink))
        for link in [
            "http://127.0.0.1:9099/__/auth/action?apiKey=other-key&mode=signIn&oobCode=CODE",
            "http://127.0.0.1:9099/__/auth/action?apiKey=demo-api-key&mode=launchMissiles&oobCode=CODE",
            "http://127.0.0.1:9099/__/auth/action?apiKey=demo-api-key&mode=signIn",
            "http://127.0.0.1:9098/__/auth/action?apiKey=demo-api-key&mode=signIn&oobCode=CODE",
            "https://127.0.0.1:9099/__/auth/action?apiKey=demo-api-key&mode=signIn&oobCode=CODE",
            "http://127.0.0.1:9099/__/auth/actions?apiKey=demo-api-key&mode=signIn&oobCode=CODE",
        ] {
            #expect(policy.decide(payload: link) == .refuse(.foreign), "\(link)")
        }
    }

    @Test("the project's custom action page counts as its action link")
    func customActionPage() {
        var project = DevelopmentSeed.project
        project.actionURL = "https://auth.example.net/handle"
        let policy = LinkLandingPolicy(project: project, publicURL: Self.publicURL)
        let link = "https://auth.example.net/handle?mode=verifyEmail&oobCode=C&apiKey=demo-api-key"
        #expect(policy.decide(payload: link) == .forward(link))
        #expect(
            policy.decide(payload: "https://auth.example.net/other?mode=verifyEmail&oobCode=C&apiKey=demo-api-key")
                == .refuse(.foreign)
        )
    }

    @Test("an authorized continue URL is forwarded, a foreign one refused")
    func continueURLs() {
        #expect(
            policy.decide(payload: "https://www.example.com/done?x=1") == .forward("https://www.example.com/done?x=1")
        )
        #expect(policy.decide(payload: "http://localhost:3000/") == .forward("http://localhost:3000/"))
        #expect(policy.decide(payload: "https://evil.example.net/phish?x=1") == .refuse(.foreign))
        #expect(policy.decide(payload: "https://www.example.com.evil.net/") == .refuse(.foreign))
        #expect(
            policy.decide(payload: "https://evil.example.net/__/auth/action?mode=signIn&oobCode=x&apiKey=demo-api-key")
                == .refuse(.foreign)
        )
    }

    @Test("every class of hostile payload is refused for its own reason")
    func refusalClasses() {
        let cases: [(String?, LinkRefusal)] = [
            (nil, .missing),
            ("", .missing),
            ("https://www.example.com/\n", .controlCharacter),
            ("https://www.exa\tmple.com/", .controlCharacter),
            ("https://www.example.com/ x", .controlCharacter),
            ("https://www.example.com/\u{7F}", .controlCharacter),
            (String(repeating: "a", count: 5000), .controlCharacter),
            ("https:\\\\evil.example.net", .backslash),
            ("https://www.example.com\\@evil.example.net/", .backslash),
            ("//evil.example.net/", .protocolRelative),
            ("https%3A%2F%2Fevil.example.net%2F", .encodedScheme),
            ("%6Aavascript:alert(1)", .encodedScheme),
            ("javascript:alert(document.domain)", .scriptScheme),
            ("JavaScript:alert(1)", .scriptScheme),
            ("data:text/html,<script>alert(1)</script>", .scriptScheme),
            ("vbscript:msgbox", .scriptScheme),
            ("ftp://www.example.com/", .unsupportedScheme),
            ("/relative/path", .unsupportedScheme),
            ("https:evil.example.net", .unsupportedScheme),
            ("https://www.example.com@evil.example.net/", .userInfo),
            ("https://user:pass@www.example.com/", .userInfo),
            ("https://www.example.com:99999/", .malformed),
            ("https://%65vil.example.net/", .malformed),
            ("https://evil.example.net/", .foreign),
        ]
        for (payload, refusal) in cases {
            #expect(policy.decide(payload: payload) == .refuse(refusal), "\(payload ?? "nil")")
        }
        #expect(Set(cases.map(\.1)) == Set(LinkRefusal.allCases))
    }

    @Test("a link sent for a registered app offers it, with the registered App Store ID and the Play Store")
    func offer() {
        let hints = AppLinkHints(
            iOSBundleID: "com.example.ios",
            androidPackageName: "com.example.android",
            androidInstallApp: true,
            androidMinimumVersion: "12"
        )
        let decision = policy.decide(payload: "https://www.example.com/after", hints: hints)
        #expect(
            decision
                == .offer(
                    AppOffer(
                        openLink: "https://www.example.com/after",
                        appStoreURL: "https://apps.apple.com/app/id1234567890",
                        playStoreURL: "https://play.google.com/store/apps/details?id=com.example.android",
                        androidMinimumVersion: "12"
                    )
                )
        )
    }

    @Test("hints cannot offer an app the project does not register, nor a made-up version")
    func forgedHints() {
        let foreign = AppLinkHints(
            iOSBundleID: "com.evil.app",
            androidPackageName: "com.evil.app",
            androidInstallApp: true
        )
        #expect(
            policy.decide(payload: "https://www.example.com/", hints: foreign) == .forward("https://www.example.com/")
        )
        let android = AppLinkHints(androidPackageName: "com.example.android", androidMinimumVersion: "<b>9</b>")
        #expect(
            policy.decide(payload: "https://www.example.com/", hints: android)
                == .offer(AppOffer(openLink: "https://www.example.com/"))
        )
        let foreignPayload = AppLinkHints(iOSBundleID: "com.example.ios")
        #expect(policy.decide(payload: "https://evil.example.net/", hints: foreignPayload) == .refuse(.foreign))
    }

    @Test("an iOS app without a registered App Store ID is offered without a store link")
    func offerWithoutStoreID() {
        var project = DevelopmentSeed.project
        project.apps = project.apps.map {
            var app = $0
            app.appStoreID = nil
            return app
        }
        let policy = LinkLandingPolicy(project: project, publicURL: Self.publicURL)
        #expect(
            policy.decide(payload: "https://www.example.com/", hints: AppLinkHints(iOSBundleID: "com.example.ios"))
                == .offer(AppOffer(openLink: "https://www.example.com/"))
        )
    }
}

@Suite("Back to the app after a web action")
struct BackToAppLinkTests {
    let builder = ActionLinkBuilder(project: DevelopmentSeed.project, publicURL: "http://127.0.0.1:9099")

    func accepted(_ settings: ActionCodeSettingsFields) throws -> AcceptedActionCodeSettings {
        try ContinueURLPolicy(project: DevelopmentSeed.project).accept(settings)
    }

    func continueURL(of link: String) -> String? {
        guard let mark = link.firstIndex(of: "?") else { return nil }
        return QueryItems(formEncoded: link[link.index(after: mark)...])["continueUrl"]
    }

    @Test("a send naming a registered app without handling the code gets a link-domain continue URL")
    func wrapsTheContinueURL() throws {
        let settings = try accepted(
            ActionCodeSettingsFields(
                continueURL: "https://www.example.com/done?a=1&b=2",
                iOSBundleID: "com.example.ios",
                iOSAppStoreID: "1234567890",
                androidPackageName: "com.example.android",
                androidInstallApp: true,
                androidMinimumVersion: "12"
            )
        )
        let link = builder.link(for: .verifyEmail, code: "C", apiKey: "demo-api-key", settings: settings, language: nil)
        #expect(link.hasPrefix("http://127.0.0.1:9099/__/auth/action?mode=verifyEmail&oobCode=C"))
        let wrapped = try #require(continueURL(of: link))
        #expect(
            wrapped
                == "https://custom-domain.com/__/auth/links?link=https://www.example.com/done?a%3D1%26b%3D2&iosBundleId=com.example.ios&androidPackageName=com.example.android&androidInstallApp=true&androidMinimumVersion=12"
        )
        #expect(
            BackToAppLink.payload(of: wrapped, linkDomains: ["custom-domain.com"])
                == "https://www.example.com/done?a=1&b=2"
        )
        let query = QueryItems(formEncoded: wrapped[wrapped.index(after: wrapped.firstIndex(of: "?")!)...])
        #expect(AppLinkHints(query) == settings.appLinkHints)
    }

    @Test("the requested link domain is used, else the project's default")
    func requestedDomain() throws {
        var project = DevelopmentSeed.project
        project.linkDomains = ["custom-domain.com", "other.example.com"]
        let settings = try ContinueURLPolicy(project: project).accept(
            ActionCodeSettingsFields(
                continueURL: "https://www.example.com/",
                androidPackageName: "com.example.android",
                linkDomain: "other.example.com"
            )
        )
        let link = ActionLinkBuilder(project: project, publicURL: "http://127.0.0.1:9099").link(
            for: .passwordReset,
            code: "C",
            apiKey: "k",
            settings: settings,
            language: nil
        )
        #expect(
            continueURL(of: link)?.hasPrefix("https://other.example.com/__/auth/links?link=https://www.example.com/")
                == true
        )
    }

    @Test("without an app, without a continue URL or without a link domain the continue URL is left alone")
    func leftAlone() throws {
        let plain = try accepted(ActionCodeSettingsFields(continueURL: "https://www.example.com/"))
        #expect(
            continueURL(of: builder.link(for: .verifyEmail, code: "C", apiKey: "k", settings: plain, language: nil))
                == "https://www.example.com/"
        )
        let noURL = try accepted(ActionCodeSettingsFields(iOSBundleID: "com.example.ios"))
        #expect(
            continueURL(of: builder.link(for: .verifyEmail, code: "C", apiKey: "k", settings: noURL, language: nil))
                == nil
        )
        var project = DevelopmentSeed.project
        project.linkDomains = []
        let settings = try ContinueURLPolicy(project: project).accept(
            ActionCodeSettingsFields(continueURL: "https://www.example.com/", iOSBundleID: "com.example.ios")
        )
        let link = ActionLinkBuilder(project: project, publicURL: "http://127.0.0.1:9099").link(
            for: .verifyEmail,
            code: "C",
            apiKey: "k",
            settings: settings,
            language: nil
        )
        #expect(continueURL(of: link) == "https://www.example.com/")
    }

    @Test("the action page's re-check allows a back-to-app link only around an authorized continue URL")
    func recheck() {
        let policy = ContinueURLPolicy(project: DevelopmentSeed.project)
        let good = BackToAppLink.make(
            continueURL: "https://www.example.com/",
            linkDomain: "custom-domain.com",
            hints: AppLinkHints(iOSBundleID: "com.example.ios")
        )
        #expect(policy.allows(good))
        let foreign = BackToAppLink.make(
            continueURL: "https://evil.example.net/",
            linkDomain: "custom-domain.com",
            hints: AppLinkHints()
        )
        #expect(!policy.allows(foreign))
        #expect(!policy.allows("https://custom-domain.com/__/auth/other?link=https://www.example.com/"))
        #expect(!policy.allows("https://other-domain.com/__/auth/links?link=https://www.example.com/"))
        #expect(!policy.allows("http://custom-domain.com/__/auth/links?link=https://www.example.com/"))
    }
}
