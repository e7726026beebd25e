import HearthBase
import HearthCore
import HearthCrypto
import HearthWire
import Testing

@testable import HearthHTTP
@testable import HearthServer

/// `/__/auth/action` through the router: every mode's form, result and refusals, the
/// headers of every page, and that looking at a link never uses its code.
@Suite struct ActionPageRouteTests {
    static let password = "correct horse battery"
    static let newPassword = "a brand new secret"

    /// The security headers the DOM contract asks of every page.
    static func expectPageHeaders(_ page: PageAnswer, _ sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(page.header("Content-Type") == "text/html; charset=utf-8", sourceLocation: sourceLocation)
        let policy = page.header("Content-Security-Policy") ?? ""
        #expect(policy.contains("frame-ancestors 'none'"), "\(policy)", sourceLocation: sourceLocation)
        #expect(policy.contains("default-src 'none'"), "\(policy)", sourceLocation: sourceLocation)
        #expect(!policy.contains("script-src") && !policy.contains("unsafe-inline"), sourceLocation: sourceLocation)
        #expect(page.header("Referrer-Policy") == "no-referrer", sourceLocation: sourceLocation)
        #expect(page.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
        #expect(page.header("X-Content-Type-Options") == "nosniff", sourceLocation: sourceLocation)
        #expect(!page.text.contains("<script"), sourceLocation: sourceLocation)
    }

    /// An app with an account for `email`.
    static func app(_ email: String = "ada@example.com") throws -> TestApplication {
        let app = try TestApplication()
        _ = try app.signUp(email, password: password)
        return app
    }

    // MARK: - Looking never uses a code

    @Test("a GET and a HEAD of every kind of link leave its code usable")
    func lookingLeavesEveryCodeUsable() throws {
        let app = try Self.app()
        var codes: [(mode: String, code: String)] = [
            ("resetPassword", try app.code("PASSWORD_RESET", email: "ada@example.com")),
            ("verifyEmail", try app.code("VERIFY_EMAIL", email: "ada@example.com")),
            ("signIn", try app.code("EMAIL_SIGNIN", email: "ada@example.com", handledInApp: true)),
        ]
        // A change of address, applied, mails the recover-email code to the old address.
        let change = try app.code("VERIFY_AND_CHANGE_EMAIL", email: "ada@example.com", newEmail: "ada@example.org")
        codes.append(("verifyAndChangeEmail", change))
        for (mode, code) in codes {
            for method in [HTTPMethod.get, .head, .get] {
                let page = app.page(TestApplication.actionTarget(mode: mode, code: code), method: method)
                #expect(page.status == 200, "\(method) \(mode)")
                Self.expectPageHeaders(page)
            }
            let state = try app.application.emailActions.state(of: code, project: DevelopmentSeed.project)
            guard case .usable = state else {
                Issue.record("\(mode): the code is \(state) after two GETs and a HEAD")
                continue
            }
        }
        // Each code still works through the Identity Toolkit after being looked at.
        let reset = app.client(
            "/v1/accounts:resetPassword",
            ["oobCode": .string(codes[0].code), "newPassword": .string(Self.newPassword)]
        )
        #expect(reset.status == 200)
        let verified = app.client("/v1/accounts:update", ["oobCode": .string(codes[1].code)])
        #expect(verified.status == 200)
        let signedIn = app.client(
            "/v1/accounts:signInWithEmailLink",
            ["oobCode": .string(codes[2].code), "email": "ada@example.com"]
        )
        #expect(signedIn.status == 200)
        let changed = app.client("/v1/accounts:update", ["oobCode": .string(change)])
        #expect(changed.status == 200)

        let recover = try app.emailedCode("RECOVER_EMAIL", to: "ada@example.com")
        for method in [HTTPMethod.get, .head] {
            let page = app.page(TestApplication.actionTarget(mode: "recoverEmail", code: recover), method: method)
            #expect(page.status == 200)
        }
        let recovered = app.client("/v1/accounts:update", ["oobCode": .string(recover)])
        #expect(recovered.status == 200, "\(recovered.text)")
    }

    // MARK: - Each mode, ready then done

    @Test("the reset page shows the address, the policy and two password fields, and sets the password")
    func resetPassword() throws {
        let app = try Self.app()
        let code = try app.code("PASSWORD_RESET", email: "ada@example.com")
        let ready = app.page(TestApplication.actionTarget(mode: "resetPassword", code: code, language: "en"))
        #expect(ready.status == 200)
        #expect(ready.pageKind == "action" && ready.outcome == "ready" && ready.mode == "resetPassword")
        #expect(ready.content(id: "email") == "ada@example.com")
        #expect(ready.text.contains("<ul id=\"password-policy\"><li>"))
        for field in ["new-password", "confirm-password"] {
            #expect(ready.text.contains("<label for=\"\(field)\">"))
            #expect(ready.text.contains("id=\"\(field)\""))
        }
        #expect(ready.text.contains("<form id=\"action-form\" method=\"post\" action=\"/__/auth/action\">"))
        #expect(ready.text.contains("<button id=\"confirm\" type=\"submit\""))
        #expect(Set(ready.hiddenFields.map(\.0)) == ["mode", "oobCode", "apiKey", "continueUrl", "lang", "csrf"])
        Self.expectPageHeaders(ready)

        let done = try app.submit(ready, ["newPassword": Self.newPassword, "confirmPassword": Self.newPassword])
        #expect(done.status == 200)
        #expect(done.outcome == "done" && done.mode == "resetPassword")
        #expect(done.href(id: "continue") == TestApplication.continueURL)
        Self.expectPageHeaders(done)
        #expect(app.signIn("ada@example.com", password: Self.newPassword).status == 200)
        #expect(app.signIn("ada@example.com", password: Self.password).status == 400)

        let again = app.page(TestApplication.actionTarget(mode: "resetPassword", code: code))
        #expect(again.status == 400 && again.outcome == "used")
        let replay = try app.submit(ready, ["newPassword": "yet another one", "confirmPassword": "yet another one"])
        #expect(replay.status == 400 && replay.outcome == "used")
        #expect(app.signIn("ada@example.com", password: Self.newPassword).status == 200)
    }

    @Test("two different passwords and a too-short one show the form again and leave the code usable")
    func resetPasswordRefusals() throws {
        let app = try Self.app()
        let code = try app.code("PASSWORD_RESET", email: "ada@example.com")
        let ready = app.page(TestApplication.actionTarget(mode: "resetPassword", code: code))

        let differ = try app.submit(
            ready,
            ["newPassword": Self.newPassword, "confirmPassword": Self.newPassword + "x"]
        )
        #expect(differ.status == 400 && differ.outcome == "passwords-differ")
        #expect(differ.has(id: "new-password") && differ.has(id: "password-policy") && differ.has(id: "confirm"))
        #expect(differ.content(id: "email") == "ada@example.com")
        #expect(differ.hidden("csrf") == ready.hidden("csrf"))
        Self.expectPageHeaders(differ)

        let weak = try app.submit(ready, ["newPassword": "short", "confirmPassword": "short"])
        #expect(weak.status == 400 && weak.outcome == "weak-password")
        #expect(weak.has(id: "new-password"))

        let tooLong = String(repeating: "é", count: PasswordPolicy.maximumBytes / 2 + 1)
        let long = try app.submit(ready, ["newPassword": tooLong, "confirmPassword": tooLong])
        #expect(long.outcome == "weak-password")

        let missing = try app.submit(ready)
        #expect(missing.outcome == "weak-password")

        #expect(app.signIn("ada@example.com", password: Self.password).status == 200)
        guard case .usable = try app.application.emailActions.state(of: code, project: DevelopmentSeed.project) else {
            Issue.record("a refused form used the code")
            return
        }
        let done = try app.submit(differ, ["newPassword": Self.newPassword, "confirmPassword": Self.newPassword])
        #expect(done.outcome == "done")
    }

    @Test("the verify page's button verifies the address and continues")
    func verifyEmail() throws {
        let app = try Self.app()
        let code = try app.code("VERIFY_EMAIL", email: "ada@example.com")
        let ready = app.page(TestApplication.actionTarget(mode: "verifyEmail", code: code))
        #expect(ready.status == 200 && ready.outcome == "ready" && ready.mode == "verifyEmail")
        #expect(ready.content(id: "email") == "ada@example.com")
        #expect(!ready.has(id: "new-password"))
        let before = try #require(app.adminUser(try localID(app, "ada@example.com"))["emailVerified"]?.boolValue)
        #expect(before == false)

        let done = try app.submit(ready)
        #expect(done.status == 200 && done.outcome == "done" && done.mode == "verifyEmail")
        #expect(done.href(id: "continue") == TestApplication.continueURL)
        Self.expectPageHeaders(done)
        #expect(app.adminUser(try localID(app, "ada@example.com"))["emailVerified"]?.boolValue == true)
    }

    @Test("changing the address and undoing it from the old mailbox")
    func changeAndRecover() throws {
        let app = try Self.app()
        let code = try app.code("VERIFY_AND_CHANGE_EMAIL", email: "ada@example.com", newEmail: "ada@example.org")
        let ready = app.page(TestApplication.actionTarget(mode: "verifyAndChangeEmail", code: code))
        #expect(ready.status == 200 && ready.outcome == "ready" && ready.mode == "verifyAndChangeEmail")
        #expect(ready.content(id: "email") == "ada@example.com")
        #expect(ready.content(id: "new-email") == "ada@example.org")
        let done = try app.submit(ready)
        #expect(done.outcome == "done" && done.content(id: "new-email") == "ada@example.org")
        #expect(app.signIn("ada@example.org", password: Self.password).status == 200)

        let recover = try app.emailedCode("RECOVER_EMAIL", to: "ada@example.com")
        let undo = app.page(TestApplication.actionTarget(mode: "recoverEmail", code: recover, continueURL: nil))
        #expect(undo.status == 200 && undo.outcome == "ready" && undo.mode == "recoverEmail")
        #expect(!undo.hiddenFields.contains { $0.0 == "continueUrl" })
        let restored = try app.submit(undo)
        #expect(restored.outcome == "done" && restored.mode == "recoverEmail")
        #expect(!restored.has(id: "continue"))
        #expect(app.signIn("ada@example.com", password: Self.password).status == 200)
        #expect(app.signIn("ada@example.org", password: Self.password).status == 400)
    }

    @Test("a sign-in link's button hands the unused code to the app's page with mode, oobCode, apiKey and lang")
    func signInHandsOver() throws {
        let app = try TestApplication()
        let code = try app.code("EMAIL_SIGNIN", email: "new@example.com", handledInApp: true)
        let target = TestApplication.actionTarget(mode: "signIn", code: code, language: "it")
        let ready = app.page(target)
        #expect(ready.status == 200 && ready.outcome == "ready" && ready.mode == "signIn")
        #expect(ready.language == "it")
        // The form's redirect goes to the app's origin: the policy lets the form go there.
        #expect(ready.header("Content-Security-Policy")?.contains("form-action 'self' http://localhost:5000") == true)

        let handOver = try app.submit(ready)
        #expect(handOver.status == 303)
        let location = try #require(handOver.header("Location"))
        #expect(location.hasPrefix("http://localhost:5000/after?from=mail&mode=signIn&oobCode="))
        #expect(location.hasSuffix("&apiKey=demo-api-key&lang=it"))
        #expect(handOver.header("Referrer-Policy") == "no-referrer")
        #expect(handOver.header("Cache-Control") == "no-store")
        // The app's page uses the code.
        let signedIn = app.client(
            "/v1/accounts:signInWithEmailLink",
            ["oobCode": .string(code), "email": "new@example.com"]
        )
        #expect(signedIn.status == 200)
    }

    @Test("a sign-in link without a continue URL says to open it in the app")
    func signInWithoutContinueURL() throws {
        let app = try TestApplication()
        let code = try app.code("EMAIL_SIGNIN", email: "new@example.com", continueURL: nil)
        let page = app.page(TestApplication.actionTarget(mode: "signIn", code: code, continueURL: nil))
        #expect(page.status == 200 && page.outcome == "no-continue-url")
        #expect(!page.has(id: "action-form"))
        Self.expectPageHeaders(page)
    }

    // MARK: - Refusals

    @Test("expired, used, unknown, mismatched and incomplete links each get their own page")
    func codeRefusals() throws {
        let app = try Self.app()
        let reset = try app.code("PASSWORD_RESET", email: "ada@example.com")
        let verify = try app.code("VERIFY_EMAIL", email: "ada@example.com")
        let cases: [(String, String, Int)] = [
            (TestApplication.actionTarget(mode: "resetPassword", code: "not-a-code"), "invalid", 400),
            (
                TestApplication.actionTarget(mode: "resetPassword", code: String(repeating: "A", count: 5_000)),
                "invalid", 400
            ),
            (TestApplication.actionTarget(mode: "somethingElse", code: reset), "invalid", 400),
            (TestApplication.actionTarget(mode: "verifyEmail", code: reset), "mismatch", 400),
            (TestApplication.actionTarget(mode: "resetPassword", code: reset, apiKey: "another-key"), "mismatch", 400),
            ("/__/auth/action", "missing", 400),
            ("/__/auth/action?mode=resetPassword&apiKey=demo-api-key", "missing", 400),
            ("/__/auth/action?oobCode=\(reset)&apiKey=demo-api-key", "missing", 400),
            ("/__/auth/action?mode=resetPassword&oobCode=\(reset)", "missing", 400),
        ]
        for (target, outcome, status) in cases {
            let page = app.page(target)
            #expect(page.status == status && page.outcome == outcome, "\(target): \(page.status) \(page.outcome ?? "")")
            #expect(page.pageKind == "action")
            #expect(page.text.contains("<h1>") && page.text.contains("id=\"message\""))
            #expect(!page.has(id: "action-form"))
            Self.expectPageHeaders(page)
        }

        let verified = app.client("/v1/accounts:update", ["oobCode": .string(verify)])
        #expect(verified.status == 200)
        let used = app.page(TestApplication.actionTarget(mode: "verifyEmail", code: verify))
        #expect(used.status == 400 && used.outcome == "used")

        app.clock.advance(milliseconds: 3_600_000)
        let expired = app.page(TestApplication.actionTarget(mode: "resetPassword", code: reset))
        #expect(expired.status == 400 && expired.outcome == "expired")
        Self.expectPageHeaders(expired)
    }

    @Test("a form that expires while open answers expired, not done")
    func expiresWhileOpen() throws {
        let app = try Self.app()
        let code = try app.code("VERIFY_EMAIL", email: "ada@example.com")
        let ready = app.page(TestApplication.actionTarget(mode: "verifyEmail", code: code))
        app.clock.advance(milliseconds: 3 * 86_400_000)
        let late = try app.submit(ready)
        #expect(late.status == 400 && late.outcome == "expired")
    }

    @Test("a form without its token, with another code's token or a made-up one is refused as csrf")
    func formTokens() throws {
        let app = try Self.app()
        let first = try app.code("VERIFY_EMAIL", email: "ada@example.com")
        let second = try app.code("VERIFY_EMAIL", email: "ada@example.com")
        let firstPage = app.page(TestApplication.actionTarget(mode: "verifyEmail", code: first))
        let secondPage = app.page(TestApplication.actionTarget(mode: "verifyEmail", code: second))
        #expect(firstPage.hidden("csrf") != secondPage.hidden("csrf"))

        for token: String? in [nil, "", secondPage.hidden("csrf"), "AAAA", "not base64 !"] {
            let refused = try app.submit(firstPage, ["csrf": token])
            #expect(refused.status == 403 && refused.outcome == "csrf", "token \(token ?? "none")")
            Self.expectPageHeaders(refused)
        }
        guard case .usable = try app.application.emailActions.state(of: first, project: DevelopmentSeed.project) else {
            Issue.record("a forged form used the code")
            return
        }
        #expect(try app.submit(firstPage).outcome == "done")
    }

    @Test("a continue URL no longer authorized: no Continue link, and a sign-in refuses to hand over")
    func continueURLCheckedAgain() throws {
        let app = try Self.app()
        let verify = try app.code("VERIFY_EMAIL", email: "ada@example.com")
        let signIn = try app.code("EMAIL_SIGNIN", email: "ada@example.com", handledInApp: true)
        let other = try app.code("VERIFY_EMAIL", email: "ada@example.com")
        let verifyPage = app.page(TestApplication.actionTarget(mode: "verifyEmail", code: verify))
        let signInPage = app.page(TestApplication.actionTarget(mode: "signIn", code: signIn))
        #expect(signInPage.outcome == "ready")

        var project = DevelopmentSeed.project
        project.authorizedDomains.removeAll { $0 == "localhost" }
        _ = try app.application.projects.save(project)

        let done = try app.submit(verifyPage)
        #expect(done.outcome == "done")
        #expect(!done.has(id: "continue"))
        #expect(!done.text.contains("localhost:5000"))

        let refused = try app.submit(signInPage)
        #expect(refused.status == 403 && refused.outcome == "unauthorized-continue-url")
        #expect(refused.header("Location") == nil)
        let look = app.page(TestApplication.actionTarget(mode: "signIn", code: signIn))
        #expect(look.outcome == "unauthorized-continue-url")

        // A continue URL edited into the form is checked the same way.
        let otherPage = app.page(TestApplication.actionTarget(mode: "verifyEmail", code: other))
        let edited = try app.submit(otherPage, ["continueUrl": "https://evil.example.net/"])
        #expect(edited.outcome == "done" && !edited.has(id: "continue") && !edited.text.contains("evil"))
    }

    @Test("a POST that is not form-encoded, or has no fields, gets a page, not JSON")
    func oddSubmissions() throws {
        let app = try TestApplication()
        let json = app.send(.post, "/__/auth/action", json: ["mode": "verifyEmail"])
        #expect(json.status == 400)
        #expect(json.header("Content-Type") == "text/html; charset=utf-8")
        let empty = app.post([])
        #expect(empty.status == 400 && empty.outcome == "missing")
        let garbage = app.send(.post, "/__/auth/action", rawBody: [0xFF, 0xFE, 0x25, 0x26, 0x3D])
        #expect(garbage.status == 400 && garbage.header("Content-Type") == "text/html; charset=utf-8")
    }

    @Test("markup in the link's values is shown as text, never run")
    func hostileValues() throws {
        let app = try Self.app()
        let code = try app.code("VERIFY_EMAIL", email: "ada@example.com")
        let hostile = "http://localhost:5000/\"><script>alert(1)</script>"
        let page = app.page(
            TestApplication.actionTarget(
                mode: "verifyEmail",
                code: code,
                continueURL: hostile,
                language: "\"><script>alert(2)</script>"
            )
        )
        #expect(page.status == 200 && page.outcome == "ready")
        #expect(page.hidden("continueUrl") == hostile)
        Self.expectPageHeaders(page)
        let done = try app.submit(page)
        #expect(done.outcome == "done")
        #expect(done.href(id: "continue") == hostile)
        Self.expectPageHeaders(done)
        let invalid = app.page("/__/auth/action?mode=%3Cscript%3E&oobCode=%3Cscript%3E&apiKey=demo-api-key")
        #expect(invalid.outcome == "invalid")
        Self.expectPageHeaders(invalid)
    }

    // MARK: - Every page's frame

    @Test("paths under /__/auth/ that serve nothing, and other methods, get pages")
    func errorPages() throws {
        let app = try TestApplication()
        for target in ["/__/auth/", "/__/auth/nothing", "/__/auth/action/extra", "/__/auth/handler?lang=fa"] {
            let page = app.page(target)
            #expect(page.status == 404 && page.pageKind == "error" && page.outcome == "not-found", "\(target)")
            Self.expectPageHeaders(page)
        }
        #expect(app.page("/__/auth/nothing?lang=fa").direction == "rtl")
        for method in [HTTPMethod.put, .delete, .patch] {
            let page = app.page("/__/auth/action", method: method)
            #expect(page.status == 405 && page.outcome == "method-not-allowed")
            #expect(page.header("Allow") == "GET, HEAD, POST, OPTIONS")
            Self.expectPageHeaders(page)
        }
        // Elsewhere the API's JSON envelope stays.
        #expect(app.send(.get, "/v1/nothing").header("Content-Type") == Response.jsonContentType)
    }

    @Test("the language comes from lang, then Accept-Language, then the project's default")
    func language() throws {
        let app = try Self.app()
        let code = try app.code("VERIFY_EMAIL", email: "ada@example.com")
        let target = TestApplication.actionTarget(mode: "verifyEmail", code: code)
        let persian = app.page(target + "&lang=fa", headers: [("Accept-Language", "it")])
        #expect(persian.language == "fa" && persian.direction == "rtl")
        #expect(persian.text.contains("<bdi id=\"email\" class=\"value\">ada@example.com</bdi>"))
        let italian = app.page(target, headers: [("Accept-Language", "de-CH, it;q=0.8, en;q=0.5")])
        #expect(italian.language == "it" && italian.direction == "ltr")
        let unknown = app.page(target + "&lang=xx", headers: [("Accept-Language", "fa-IR")])
        #expect(unknown.language == "fa")

        var project = DevelopmentSeed.project
        project.settings.defaultLanguage = "it"
        _ = try app.application.projects.save(project)
        #expect(app.page(target).language == "it")
        #expect(app.page(target, headers: [("Accept-Language", "en")]).language == "en")
    }

    @Test("the style elements are allowed by their hashes, and the logo by its origin only")
    func contentSecurityPolicy() throws {
        let app = try Self.app()
        let code = try app.code("VERIFY_EMAIL", email: "ada@example.com")
        let target = TestApplication.actionTarget(mode: "verifyEmail", code: code)
        func styleHashes(_ page: PageAnswer) -> [String] {
            page.text.matches(of: /<style>([^<]*)<\/style>/).map {
                "'sha256-\(Base64.encode(SHA256.hash(utf8Of: String($0.output.1))))'"
            }
        }
        let plain = app.page(target)
        let plainPolicy = try #require(plain.header("Content-Security-Policy"))
        #expect(styleHashes(plain).count == 2)
        for hash in styleHashes(plain) { #expect(plainPolicy.contains(hash)) }
        #expect(!plainPolicy.contains("img-src"))
        #expect(!plain.text.contains("<img"))

        var project = DevelopmentSeed.project
        project.settings.logoURL = "https://cdn.example.com:8443/brand/logo.svg?v=2"
        project.settings.accentColor = "#FFD33D"
        project.settings.appName = "Ada's <Shop>"
        _ = try app.application.projects.save(project.validated())
        let branded = app.page(target)
        let policy = try #require(branded.header("Content-Security-Policy"))
        #expect(policy.contains("img-src https://cdn.example.com:8443;"))
        #expect(branded.text.contains("<img src=\"https://cdn.example.com:8443/brand/logo.svg?v=2\" alt=\"\""))
        #expect(branded.text.contains(":root{--accent:#ffd33d;--on-accent:#000000}"))
        #expect(branded.text.contains("Ada&#39;s &lt;Shop&gt;"))
        for hash in styleHashes(branded) { #expect(policy.contains(hash)) }
    }

    @Test("every page's words exist in every language the emails ship, with English's placeholders")
    func wordsInEveryLanguage() throws {
        func placeholders(_ text: String) -> Set<String> {
            Set(text.matches(of: /\{[A-Za-z]+\}/).map { String($0.output) })
        }
        func words(_ text: ActionPageText) -> [String: String] {
            var words: [String: String] = [
                "newPasswordLabel": text.newPasswordLabel, "confirmPasswordLabel": text.confirmPasswordLabel,
                "policyHeading": text.policyHeading, "minimumCharacters": text.minimumCharacters,
                "maximumBytes": text.maximumBytes, "passwordsDiffer": text.passwordsDiffer,
                "weakPassword": text.weakPassword, "continueLabel": text.continueLabel, "closeHint": text.closeHint,
            ]
            for (operation, mode) in text.modes {
                let name = operation.mode ?? "?"
                words[name + ".heading"] = mode.heading
                words[name + ".message"] = mode.message
                words[name + ".button"] = mode.button
                words[name + ".doneHeading"] = mode.doneHeading
                words[name + ".doneMessage"] = mode.doneMessage
            }
            for (outcome, refusal) in text.refusals {
                words[outcome.rawValue + ".heading"] = refusal.heading
                words[outcome.rawValue + ".message"] = refusal.message
            }
            return words
        }
        let english = words(ActionPageText.copy[DocumentLanguage("en")])
        #expect(english.count == 9 + 5 * ActionCodeOperation.actions.count + 2 * ActionPageText.refusalOutcomes.count)
        for tag in LanguagePack.builtInTags {
            let language = DocumentLanguage(tag)
            let translated = words(ActionPageText.copy[language])
            #expect(Set(translated.keys) == Set(english.keys), "\(tag)")
            for (key, text) in translated {
                #expect(!text.isEmpty, "\(tag) \(key)")
                #expect(placeholders(text) == placeholders(english[key] ?? ""), "\(tag) \(key): \(text)")
            }
            let errors = ErrorPageText.copy[language]
            for text in [
                errors.notFoundHeading, errors.notFoundMessage, errors.methodHeading, errors.methodMessage,
                errors.failureHeading, errors.failureMessage,
            ] {
                #expect(!text.isEmpty && placeholders(text).isEmpty, "\(tag)")
            }
            #expect(PageLanguage.choose(requested: tag, acceptLanguage: nil, projectDefault: nil) == language)
        }
    }

    private func localID(_ app: TestApplication, _ email: String) throws -> String {
        let answer = app.admin(
            .post,
            "/v1/projects/\(TestApplication.projectID)/accounts:lookup",
            ["email": [.string(email)]]
        )
        return try #require(answer.json["users"]?[0]?["localId"]?.stringValue)
    }
}
