import Foundation
import HearthCore
import HearthWire
import Testing

@Suite struct ContinueURLParsingTests {
    @Test(
        arguments: [
            ("https://www.example.com/", "www.example.com", nil),
            ("http://localhost:8080/path?x=1#frag", "localhost", 8080),
            ("HTTPS://WWW.EXAMPLE.COM", "www.example.com", nil),
            ("https://www.example.com./", "www.example.com", nil),
            ("https://[::1]:9099/", "[::1]", 9099),
            ("https://127.0.0.1/", "127.0.0.1", nil),
            ("https://bücher.example/x", "xn--bcher-kva.example", nil),
            ("https://www.example.com:/", "www.example.com", nil),
        ] as [(String, String, Int?)]
    )
    func wellFormedURLsAreTakenApart(text: String, host: String, port: Int?) throws {
        let url = try ContinueURL(text)
        #expect(url.host == host)
        #expect(url.port == port)
        #expect(url.text == text)
    }

    @Test(
        arguments: [
            ("/relative/path", ContinueURL.ParseError.notAbsolute),
            ("www.example.com", .notAbsolute),
            ("javascript:alert(1)", .unsupportedScheme),
            ("ftp://www.example.com/", .unsupportedScheme),
            ("data:text/html,hi", .unsupportedScheme),
            ("https:www.example.com", .notAbsolute),
            ("//www.example.com/", .notAbsolute),
            ("https://user:pass@www.example.com/", .userInfo),
            ("https://www.example.com@evil.com/", .userInfo),
            ("https://evil.com\\@www.example.com/", .forbiddenCharacter),
            ("https://www.example.com\\.evil.com/", .forbiddenCharacter),
            ("https://evil%2ecom/", .badHost),
            ("https://www.example.com:99999/", .badPort),
            ("https://www.example.com:8o/", .badPort),
            (" https://www.example.com/", .forbiddenCharacter),
            ("https://www.exa mple.com/", .forbiddenCharacter),
            ("https://www.example.com/\n", .forbiddenCharacter),
            ("https://www.exa\tmple.com/", .forbiddenCharacter),
            ("https:///path", .badHost),
            ("https://.example.com/", .badHost),
            ("https://www..example.com/", .badHost),
            ("https://[::1/", .badHost),
            ("https://exa_mple!.com/", .badHost),
        ] as [(String, ContinueURL.ParseError)]
    )
    func anythingABrowserMightReadDifferentlyIsRefused(text: String, error: ContinueURL.ParseError) {
        #expect(throws: error) { try ContinueURL(text) }
    }
}

@Suite struct ContinueURLPolicyTests {
    private let seed = ContinueURLPolicy(project: DevelopmentSeed.project)

    private func code(_ settings: ActionCodeSettingsFields, policy: ContinueURLPolicy? = nil) -> String? {
        do {
            _ = try (policy ?? seed).accept(settings)
            return nil
        } catch {
            return error.code
        }
    }

    @Test(arguments: [
        "https://www.example.com/", "https://www.example.com/deep/path?email=user@example.com#x",
        "http://localhost:3000/finish", "https://127.0.0.1:8443/", "https://WWW.Example.COM/",
        "https://www.example.com./",
    ])
    func continueURLsOnAuthorizedDomainsAreAccepted(url: String) throws {
        let accepted = try seed.accept(ActionCodeSettingsFields(continueURL: url))
        #expect(accepted.continueURL == url)
        #expect(!accepted.handledInApp)
    }

    @Test(arguments: [
        "https://example.com/", "https://evil.com/", "https://www.example.com.evil.com/",
        "https://sub.www.example.com/",
        "https://127.0.0.2/", "https://localhost.evil.com/", "https://xn--www-example-com.evil/",
    ])
    func continueURLsElsewhereAreUnauthorized(url: String) {
        #expect(code(ActionCodeSettingsFields(continueURL: url)) == "UNAUTHORIZED_DOMAIN")
    }

    @Test(arguments: [
        "javascript:alert(document.domain)", "https://user@www.example.com/", "www.example.com/path", "/path",
        "https://www.example.com\\@evil.com/",
    ])
    func malformedContinueURLsAreInvalid(url: String) {
        #expect(code(ActionCodeSettingsFields(continueURL: url)) == "INVALID_CONTINUE_URI")
    }

    @Test func aWildcardEntryAuthorisesSubDomainsOnly() {
        var project = DevelopmentSeed.project
        project.authorizedDomains = ["*.apps.example.org"]
        let policy = ContinueURLPolicy(project: project)
        #expect(policy.allows("https://a.apps.example.org/"))
        #expect(policy.allows("https://x.y.apps.example.org/"))
        #expect(!policy.allows("https://apps.example.org/"))
        #expect(!policy.allows("https://evilapps.example.org/"))
        #expect(!policy.allows("https://a.apps.example.org.evil.com/"))
    }

    @Test func internationalisedHostsMatchInEitherForm() {
        var project = DevelopmentSeed.project
        project.authorizedDomains = ["bücher.example"]
        let policy = ContinueURLPolicy(project: project)
        #expect(policy.allows("https://xn--bcher-kva.example/"))
        #expect(policy.allows("https://BÜCHER.example/"))
        #expect(!policy.allows("https://bucher.example/"))
        project.authorizedDomains = ["xn--bcher-kva.example"]
        #expect(ContinueURLPolicy(project: project).allows("https://bücher.example/"))
    }

    @Test func anAppThatHandlesTheCodeNeedsAContinueURL() {
        #expect(
            code(ActionCodeSettingsFields(canHandleCodeInApp: true, iOSBundleID: "com.example.ios"))
                == "MISSING_CONTINUE_URI"
        )
    }

    @Test func registeredAppsAreAcceptedAndOthersRefused() throws {
        let accepted = try seed.accept(
            ActionCodeSettingsFields(
                continueURL: "https://www.example.com/",
                canHandleCodeInApp: true,
                iOSBundleID: "com.example.ios",
                androidPackageName: "com.example.android",
                androidInstallApp: true,
                androidMinimumVersion: "12"
            )
        )
        #expect(accepted.handledInApp)
        #expect(accepted.iOSBundleID == "com.example.ios")
        #expect(accepted.androidPackageName == "com.example.android")
        #expect(
            code(ActionCodeSettingsFields(continueURL: "https://www.example.com/", iOSBundleID: "com.attacker.app"))
                == "INVALID_IOS_BUNDLE_ID"
        )
        #expect(
            code(
                ActionCodeSettingsFields(
                    continueURL: "https://www.example.com/",
                    androidPackageName: "com.attacker.app"
                )
            )
                == "INVALID_ANDROID_PACKAGE_NAME"
        )
    }

    @Test func appStoreAndInstallOptionsNeedTheirApp() {
        #expect(
            code(ActionCodeSettingsFields(continueURL: "https://www.example.com/", iOSAppStoreID: "123"))
                == "MISSING_IOS_BUNDLE_ID"
        )
        #expect(
            code(ActionCodeSettingsFields(continueURL: "https://www.example.com/", androidInstallApp: true))
                == "MISSING_ANDROID_PACKAGE_NAME"
        )
        #expect(
            code(ActionCodeSettingsFields(continueURL: "https://www.example.com/", androidMinimumVersion: "3"))
                == "MISSING_ANDROID_PACKAGE_NAME"
        )
    }

    @Test func aProjectWithoutAWebAppNeedsAMobileAppToHandleCodes() {
        var project = DevelopmentSeed.project
        project.apps.removeAll { $0.platform == .web }
        let policy = ContinueURLPolicy(project: project)
        #expect(
            code(
                ActionCodeSettingsFields(continueURL: "https://www.example.com/", canHandleCodeInApp: true),
                policy: policy
            )
                == "MISSING_IOS_BUNDLE_ID"
        )
        #expect(
            code(ActionCodeSettingsFields(continueURL: "https://www.example.com/", canHandleCodeInApp: true)) == nil
        )
    }

    @Test func linkDomainsMustBeTheProjects() throws {
        let accepted = try seed.accept(
            ActionCodeSettingsFields(
                continueURL: "https://www.example.com/",
                canHandleCodeInApp: true,
                linkDomain: "Custom-Domain.COM."
            )
        )
        #expect(accepted.linkDomain == "custom-domain.com")
        #expect(
            code(
                ActionCodeSettingsFields(
                    continueURL: "https://www.example.com/",
                    canHandleCodeInApp: true,
                    linkDomain: "evil.com"
                )
            )
                == "INVALID_HOSTING_LINK_DOMAIN"
        )
    }

    @Test func dynamicLinkDomainsAreRefusedAsRetired() {
        #expect(throws: ActionCodeSettingsError.self) {
            try seed.accept(
                ActionCodeSettingsFields(
                    continueURL: "https://www.example.com/",
                    dynamicLinkDomain: "example.page.link"
                )
            )
        }
        do {
            _ = try seed.accept(ActionCodeSettingsFields(dynamicLinkDomain: "example.page.link"))
            Issue.record("a dynamic link domain was accepted")
        } catch {
            #expect(error.code == "INVALID_DYNAMIC_LINK_DOMAIN")
            #expect(error.detail.contains("shut down"))
        }
    }

    @Test func emptyFieldsCountAsAbsent() throws {
        let accepted = try seed.accept(
            ActionCodeSettingsFields(
                continueURL: "",
                iOSBundleID: "",
                androidPackageName: "",
                linkDomain: "",
                dynamicLinkDomain: ""
            )
        )
        #expect(accepted.continueURL == nil)
        #expect(accepted.iOSBundleID == nil)
    }
}

@Suite struct ActionLinkBuilderTests {
    private let builder = ActionLinkBuilder(project: DevelopmentSeed.project, publicURL: "http://127.0.0.1:9099")

    /// The query parameters of `link`, decoded once.
    private func parameters(_ link: String) -> [String: String] {
        guard let question = link.firstIndex(of: "?") else { return [:] }
        var result: [String: String] = [:]
        for pair in link[link.index(after: question)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            result[String(parts[0])] = parts.count > 1 ? String(parts[1]).removingPercentEncoding : ""
        }
        return result
    }

    @Test func aPlainLinkCarriesModeCodeAPIKeyContinueURLAndLanguageInThatOrder() {
        let link = builder.link(
            for: .passwordReset,
            code: "CODE123",
            apiKey: "demo-api-key",
            settings: AcceptedActionCodeSettings(
                continueURL: "https://www.example.com/?a=1&b=2",
                handledInApp: false
            ),
            language: "it"
        )
        #expect(
            link
                == "http://127.0.0.1:9099/__/auth/action?mode=resetPassword&oobCode=CODE123&apiKey=demo-api-key&continueUrl=https://www.example.com/?a%3D1%26b%3D2&lang=it"
        )
        #expect(parameters(link)["continueUrl"] == "https://www.example.com/?a=1&b=2")
    }

    @Test func theAPIKeyIsAlwaysPresentAndOptionalPartsAreLeftOut() {
        let link = builder.link(
            for: .verifyEmail,
            code: "C",
            apiKey: "demo-api-key",
            settings: AcceptedActionCodeSettings(continueURL: nil, handledInApp: false),
            language: nil
        )
        #expect(link == "http://127.0.0.1:9099/__/auth/action?mode=verifyEmail&oobCode=C&apiKey=demo-api-key")
    }

    @Test func aCustomActionURLIsUsedAndMayHaveItsOwnQuery() {
        var project = DevelopmentSeed.project
        project.actionURL = "https://app.example.com/auth?tenant=a"
        let link = ActionLinkBuilder(project: project, publicURL: "http://127.0.0.1:9099").link(
            for: .emailLink,
            code: "C",
            apiKey: "k",
            settings: AcceptedActionCodeSettings(continueURL: nil, handledInApp: false),
            language: nil
        )
        #expect(link == "https://app.example.com/auth?tenant=a&mode=signIn&oobCode=C&apiKey=k")
    }

    @Test func theSeedExampleIsWrappedOnTheLinkDomainAndUnwrapsToTheActionLink() throws {
        let settings = try ContinueURLPolicy(project: DevelopmentSeed.project).accept(
            ActionCodeSettingsFields(
                continueURL: "https://www.example.com/?email=user@example.com",
                canHandleCodeInApp: true,
                iOSBundleID: "com.example.ios",
                androidPackageName: "com.example.android",
                linkDomain: "custom-domain.com"
            )
        )
        let link = builder.link(
            for: .verifyEmail,
            code: "CODE",
            apiKey: "demo-api-key",
            settings: settings,
            language: "en"
        )
        #expect(
            link.hasPrefix(
                "https://custom-domain.com/__/auth/links?link=http://127.0.0.1:9099/__/auth/action?apiKey%3Ddemo-api-key%26mode%3DverifyEmail"
            )
        )
        // The continue URL's own query is encoded twice inside the wrapper.
        #expect(link.contains("continueUrl%3Dhttps://www.example.com/?email%253Duser%40example.com"))
        #expect(!link.dropFirst(link.firstIndex(of: "?")!.utf16Offset(in: link) + 1).contains("&"))
        let inner = try #require(parameters(link)["link"])
        #expect(
            inner
                == "http://127.0.0.1:9099/__/auth/action?apiKey=demo-api-key&mode=verifyEmail&oobCode=CODE&continueUrl=https://www.example.com/?email%3Duser@example.com&lang=en"
        )
        let innerParameters = parameters(inner)
        #expect(innerParameters["mode"] == "verifyEmail")
        #expect(innerParameters["oobCode"] == "CODE")
        #expect(innerParameters["continueUrl"] == "https://www.example.com/?email=user@example.com")
        #expect(innerParameters["lang"] == "en")
    }

    @Test func withoutARequestedDomainTheProjectDefaultThenThePublicHostIsUsed() {
        let settings = AcceptedActionCodeSettings(continueURL: "https://www.example.com/", handledInApp: true)
        let link = builder.link(for: .emailLink, code: "C", apiKey: "k", settings: settings, language: nil)
        #expect(link.hasPrefix("https://custom-domain.com/__/auth/links?link="))
        var project = DevelopmentSeed.project
        project.linkDomains = []
        let bare = ActionLinkBuilder(project: project, publicURL: "https://auth.example.org").link(
            for: .emailLink,
            code: "C",
            apiKey: "k",
            settings: settings,
            language: nil
        )
        #expect(
            bare.hasPrefix(
                "https://auth.example.org/__/auth/links?link=https://auth.example.org/__/auth/action?apiKey%3Dk"
            )
        )
    }

    @Test func operationsRoundTripThroughTheirModesAndRequestTypes() {
        for operation in ActionCodeOperation.actions {
            #expect(operation.mode.flatMap(ActionCodeOperation.init(mode:)) == operation)
            #expect(ActionCodeOperation(exactRequestType: operation.requestType) == operation)
        }
        #expect(ActionCodeOperation(mode: "revertSecondFactorAddition") == nil)
        #expect(ActionCodeOperation(exactRequestType: "OOB_REQ_TYPE_UNSPECIFIED") == nil)
        #expect(ActionCodeOperation(exactRequestType: "password_reset") == nil)
    }

    @Test("a mail kind's raw value is its action's requestType, and reads back as that kind")
    func mailKindsKeepTheirStoredNames() {
        #expect(
            MailKind.allCases.map(\.rawValue) == [
                "PASSWORD_RESET", "VERIFY_EMAIL", "RECOVER_EMAIL", "EMAIL_SIGNIN", "VERIFY_AND_CHANGE_EMAIL", "TEST",
            ]
        )
        for kind in MailKind.allCases { #expect(MailKind(rawValue: kind.rawValue) == kind) }
        #expect(MailKind(rawValue: "OOB_REQ_TYPE_UNSPECIFIED") == nil)
        #expect(MailKind.action(.emailLink).linkMode == "signIn" && MailKind.test.linkMode == nil)
    }
}
