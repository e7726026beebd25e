import Foundation
import HearthWire
import Testing

@testable import HearthCore

/// The action page's rules, without a store or HTTP.
@Suite struct ActionPageDecisionTests {
    static let project = DevelopmentSeed.project
    static let policy = ContinueURLPolicy(project: project)
    static let continueURL = "http://localhost:5000/after"

    static func info(_ operation: ActionCodeOperation) -> ActionCodeInfo {
        ActionCodeInfo(operation: operation, email: "ada@example.com", newEmail: nil, localID: "ada")
    }

    static func request(
        _ mode: String?,
        code: String? = "code",
        apiKey: String? = "demo-api-key",
        continueURL: String? = continueURL,
        language: String? = nil,
        submission: ActionPageRequest.Submission? = nil
    ) -> ActionPageRequest {
        ActionPageRequest(
            mode: mode,
            code: code,
            apiKey: apiKey,
            continueURL: continueURL,
            language: language,
            submission: submission
        )
    }

    static func decide(
        _ request: ActionPageRequest,
        _ state: ActionCodeState,
        tokenMatches: Bool = true,
        policy: ContinueURLPolicy? = policy
    ) -> ActionPageDecision.Step {
        ActionPageDecision.decide(
            request,
            state: state,
            formTokenMatches: tokenMatches,
            continueURLs: policy,
            language: "en"
        )
    }

    static let modes: [(String, ActionCodeOperation)] = [
        ("resetPassword", .passwordReset), ("verifyEmail", .verifyEmail), ("signIn", .emailLink),
        ("verifyAndChangeEmail", .verifyAndChangeEmail), ("recoverEmail", .recoverEmail),
    ]

    static let states: [ActionCodeState] =
        [.invalid, .otherProject]
        + ActionCodeOperation.actions.flatMap { [.usable(info($0)), .used($0), .expired($0)] }

    @Test("a look (no submission) never uses a code, whatever the link and the code's state")
    func lookingNeverUses() {
        for (mode, _) in Self.modes {
            for state in Self.states {
                for continueURL in [nil, Self.continueURL, "https://evil.example.net/"] {
                    for tokenMatches in [true, false] {
                        let step = Self.decide(
                            Self.request(mode, continueURL: continueURL),
                            state,
                            tokenMatches: tokenMatches
                        )
                        guard case .show = step else {
                            Issue.record("\(mode) \(state) \(continueURL ?? "none"): \(step)")
                            continue
                        }
                    }
                }
            }
        }
    }

    @Test("each mode with a usable code of its kind shows its form")
    func readyForEveryMode() {
        for (mode, operation) in Self.modes {
            #expect(Self.decide(Self.request(mode), .usable(Self.info(operation))) == .show(.ready), "\(mode)")
        }
    }

    @Test("an incomplete link is missing, whatever else holds")
    func missing() {
        for request in [
            Self.request(nil), Self.request(""), Self.request("verifyEmail", code: nil),
            Self.request("verifyEmail", code: ""), Self.request("verifyEmail", apiKey: nil),
            Self.request("verifyEmail", apiKey: ""),
        ] {
            #expect(Self.decide(request, .usable(Self.info(.verifyEmail))) == .show(.missing))
            #expect(Self.decide(request, .invalid, tokenMatches: false) == .show(.missing))
        }
    }

    @Test("an unknown mode is invalid; the code's state decides next; a code of another kind is a mismatch")
    func codeStates() {
        #expect(
            Self.decide(Self.request("revertSecondFactorAddition"), .usable(Self.info(.verifyEmail))) == .show(.invalid)
        )
        #expect(Self.decide(Self.request("verifyEmail"), .invalid) == .show(.invalid))
        #expect(Self.decide(Self.request("verifyEmail"), .otherProject) == .show(.mismatch))
        #expect(Self.decide(Self.request("verifyEmail"), .used(.verifyEmail)) == .show(.used))
        #expect(Self.decide(Self.request("verifyEmail"), .expired(.verifyEmail)) == .show(.expired))
        #expect(Self.decide(Self.request("verifyEmail"), .usable(Self.info(.passwordReset))) == .show(.mismatch))
        #expect(Self.decide(Self.request("resetPassword"), .usable(Self.info(.emailLink))) == .show(.mismatch))
    }

    @Test("a submission whose form token does not match is refused before anything about the code")
    func forgedForms() {
        for state in Self.states {
            let submitted = Self.request("verifyEmail", submission: .init(formToken: "forged"))
            #expect(Self.decide(submitted, state, tokenMatches: false) == .show(.csrf))
            let tokenless = Self.request("verifyEmail", submission: .init(formToken: nil))
            #expect(Self.decide(tokenless, state, tokenMatches: true) == .show(.csrf))
        }
    }

    @Test("a reset needs the same password twice, within the policy")
    func resetPassword() {
        let usable = ActionCodeState.usable(Self.info(.passwordReset))
        func submit(_ new: String?, _ confirm: String?) -> ActionPageDecision.Step {
            Self.decide(
                Self.request(
                    "resetPassword",
                    submission: .init(formToken: "t", newPassword: new, confirmPassword: confirm)
                ),
                usable
            )
        }
        #expect(submit("a good secret", "a good secret") == .resetPassword(newPassword: "a good secret"))
        #expect(submit("a good secret", "a good secreT") == .show(.passwordsDiffer))
        #expect(submit("a good secret", nil) == .show(.passwordsDiffer))
        #expect(submit("short", "short") == .show(.weakPassword))
        #expect(submit(nil, nil) == .show(.weakPassword))
        let long = String(repeating: "x", count: PasswordPolicy.maximumBytes + 1)
        #expect(submit(long, long) == .show(.weakPassword))
        // Two different passwords are reported before a weak one.
        #expect(submit("short", "other") == .show(.passwordsDiffer))
    }

    @Test("verify, change and recover codes are applied on submission")
    func applied() {
        for operation in [ActionCodeOperation.verifyEmail, .verifyAndChangeEmail, .recoverEmail] {
            let request = Self.request(operation.mode, submission: .init(formToken: "t"))
            #expect(Self.decide(request, .usable(Self.info(operation))) == .apply)
        }
    }

    @Test("a sign-in continues to an authorized continue URL with the sign-in parameters, else says why not")
    func signIn() {
        let usable = ActionCodeState.usable(Self.info(.emailLink))
        let submission = ActionPageRequest.Submission(formToken: "t")
        #expect(
            Self.decide(Self.request("signIn", code: "c0de", language: "fa", submission: submission), usable)
                == .continueSignIn(
                    to: "http://localhost:5000/after?mode=signIn&oobCode=c0de&apiKey=demo-api-key&lang=fa"
                )
        )
        // No `lang` in the link: the page's language goes along.
        #expect(
            Self.decide(Self.request("signIn", code: "c0de", submission: submission), usable)
                == .continueSignIn(
                    to: "http://localhost:5000/after?mode=signIn&oobCode=c0de&apiKey=demo-api-key&lang=en"
                )
        )
        for submission in [nil, submission] {
            #expect(
                Self.decide(Self.request("signIn", continueURL: nil, submission: submission), usable)
                    == .show(.noContinueURL)
            )
            #expect(
                Self.decide(
                    Self.request("signIn", continueURL: "https://evil.example.net/", submission: submission),
                    usable
                )
                    == .show(.unauthorizedContinueURL)
            )
            #expect(
                Self.decide(Self.request("signIn", submission: submission), usable, policy: nil)
                    == .show(.unauthorizedContinueURL)
            )
        }
    }

    @Test("the sign-in hand-over keeps the continue URL's query and fragment and replaces its sign-in parameters")
    func handOverURL() {
        #expect(
            SignInHandOver.url(
                "https://app.example/finish?next=%2Fhome&mode=x#top",
                code: "a+b",
                apiKey: "k",
                language: "pt-BR"
            )
                == "https://app.example/finish?next=%2Fhome&mode=signIn&oobCode=a%2Bb&apiKey=k&lang=pt-BR#top"
        )
        #expect(
            SignInHandOver.url("https://app.example", code: "c", apiKey: "k", language: "")
                == "https://app.example?mode=signIn&oobCode=c&apiKey=k"
        )
        #expect(
            SignInHandOver.url(
                "https://app.example/?oobCode=old&apiKey=old&lang=old",
                code: "c",
                apiKey: "k",
                language: "en"
            )
                == "https://app.example/?mode=signIn&oobCode=c&apiKey=k&lang=en"
        )
    }

    @Test("Continue is offered only for a continue URL that is still authorized")
    func continueLink() {
        #expect(
            ActionPageDecision.continueLink(Self.request("verifyEmail"), continueURLs: Self.policy) == Self.continueURL
        )
        #expect(
            ActionPageDecision.continueLink(Self.request("verifyEmail", continueURL: nil), continueURLs: Self.policy)
                == nil
        )
        #expect(
            ActionPageDecision.continueLink(
                Self.request("verifyEmail", continueURL: "javascript:alert(1)"),
                continueURLs: Self.policy
            ) == nil
        )
        var narrowed = Self.project
        narrowed.authorizedDomains = ["www.example.com"]
        #expect(
            ActionPageDecision.continueLink(
                Self.request("verifyEmail"),
                continueURLs: ContinueURLPolicy(project: narrowed)
            ) == nil
        )
    }

    @Test("a refused use reports the code's state read again")
    func failedUse() {
        #expect(ActionPageDecision.outcome(afterFailedUseWith: .used(.verifyEmail)) == .used)
        #expect(ActionPageDecision.outcome(afterFailedUseWith: .expired(.verifyEmail)) == .expired)
        #expect(ActionPageDecision.outcome(afterFailedUseWith: .invalid) == .invalid)
        #expect(ActionPageDecision.outcome(afterFailedUseWith: .usable(Self.info(.verifyEmail))) == .invalid)
    }

    @Test("refusals are the contract's, and only they are")
    func outcomes() {
        #expect(
            Set(ActionPageOutcome.allCases.map(\.rawValue)) == [
                "ready", "done", "expired", "used", "invalid", "mismatch", "missing", "passwords-differ",
                "weak-password", "csrf", "unauthorized-continue-url", "no-continue-url",
            ]
        )
        #expect(ActionPageOutcome.allCases.filter { !$0.isRefusal } == [.ready, .done, .noContinueURL])
    }
}

@Suite struct ActionFormTokenTests {
    @Test("a form token matches its code only, under its master key only")
    func bound() {
        let key = MasterKey.generate()
        let tokens = ActionFormToken(masterKey: key)
        let token = tokens.token(for: "code-one")
        #expect(tokens.matches(token, code: "code-one"))
        #expect(ActionFormToken(masterKey: key).matches(token, code: "code-one"))
        #expect(!tokens.matches(token, code: "code-two"))
        #expect(!ActionFormToken(masterKey: MasterKey.generate()).matches(token, code: "code-one"))
        for forged in [nil, "", "AAAA", String(token.dropLast()), token + "A", "!!!"] {
            #expect(!tokens.matches(forged, code: "code-one"), "\(forged ?? "nil")")
        }
        #expect(tokens.token(for: "code-one") == token)
        #expect(token.count == 43)
    }

    @Test("keys derived from the master key differ by purpose and are stable")
    func derivedKeys() {
        let key = MasterKey.generate()
        #expect(key.derivedKey(for: "a") == key.derivedKey(for: "a"))
        #expect(key.derivedKey(for: "a") != key.derivedKey(for: "b"))
        #expect(key.derivedKey(for: "a") != MasterKey.generate().derivedKey(for: "a"))
        #expect(key.derivedKey(for: "a").count == 32)
    }
}

@Suite struct PasswordPolicyTests {
    @Test("the listed requirements are the ones enforced, at their boundaries")
    func requirementsAreEnforced() throws {
        #expect(
            PasswordPolicy.requirements == [
                .minimumCharacters(PasswordPolicy.minimumCharacters), .maximumBytes(PasswordPolicy.maximumBytes),
            ]
        )
        for requirement in PasswordPolicy.requirements {
            switch requirement {
            case .minimumCharacters(let count):
                #expect(throws: AuthError.self) {
                    try PasswordPolicy.validate(String(repeating: "é", count: count - 1))
                }
                try PasswordPolicy.validate(String(repeating: "é", count: count))
            case .maximumBytes(let count):
                try PasswordPolicy.validate(String(repeating: "a", count: count))
                #expect(throws: AuthError.self) {
                    try PasswordPolicy.validate(String(repeating: "a", count: count + 1))
                }
            }
        }
    }
}

@Suite struct PageBrandingTests {
    @Test("a logo must be an https URL; its origin is all the pages allow")
    func logo() {
        #expect(PageBranding.logoOrigin("https://cdn.example.com/logo.png") == "https://cdn.example.com")
        #expect(PageBranding.logoOrigin("https://CDN.example.com:8443/a/b.svg?x=1") == "https://cdn.example.com:8443")
        for refused in [
            "http://cdn.example.com/logo.png", "//cdn.example.com/logo.png", "/logo.png", "data:image/png;base64,AAAA",
            "https://user@cdn.example.com/logo.png", "https://cdn.example.com/a b.png", "https://cdn.example.com/\"x",
            "https://cdn.example.com/<x>", "javascript:alert(1)",
        ] {
            #expect(PageBranding.logoOrigin(refused) == nil, "\(refused)")
        }
    }

    @Test("an accent colour is #rrggbb; its text colour is the one with more contrast")
    func accent() {
        #expect(PageBranding.isColor("#1a5fb4") && PageBranding.isColor("#FFD33D"))
        for refused in ["1a5fb4", "#1a5fb", "#1a5fb4a", "#gggggg", "red", "#fff", ""] {
            #expect(!PageBranding.isColor(refused), "\(refused)")
        }
        var project = DevelopmentSeed.project
        #expect(PageBranding(project: project).accentColor == PageBranding.defaultAccentColor)
        #expect(PageBranding(project: project).onAccentColor == "#ffffff")
        project.settings.accentColor = "#FFD33D"
        #expect(PageBranding(project: project).accentColor == "#ffd33d")
        #expect(PageBranding(project: project).onAccentColor == "#000000")
        project.settings.accentColor = "#000080"
        #expect(PageBranding(project: project).onAccentColor == "#ffffff")
    }

    @Test("a project with a bad logo URL or accent colour is refused with both problems")
    func validation() throws {
        var project = DevelopmentSeed.project
        project.settings.logoURL = "http://cdn.example.com/logo.png"
        project.settings.accentColor = "blue"
        do {
            _ = try project.validated()
            Issue.record("accepted")
        } catch {
            #expect(error.problems.contains { $0.contains("settings.logoUrl") })
            #expect(error.problems.contains { $0.contains("settings.accentColor") })
        }
        project.settings.logoURL = "https://cdn.example.com/logo.png"
        project.settings.accentColor = "#112233"
        _ = try project.validated()
    }

    @Test("the branding settings are read from and written to the configuration's JSON")
    func codable() throws {
        let json = ##"{"logoUrl":"https://cdn.example.com/logo.png","accentColor":"#112233","appName":"Shop"}"##
        let settings = try JSONDecoder().decode(ProjectSettings.self, from: Data(json.utf8))
        #expect(settings.logoURL == "https://cdn.example.com/logo.png")
        #expect(settings.accentColor == "#112233")
        let again = try JSONDecoder().decode(ProjectSettings.self, from: JSONEncoder().encode(settings))
        #expect(again == settings)
        let written = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        #expect(written.contains("\"logoUrl\""))
    }
}
