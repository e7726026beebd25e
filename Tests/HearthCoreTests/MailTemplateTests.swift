import HearthCore
import HearthWire
import Testing

@Suite struct MailTemplateTests {
    @Test func placeholderOrdinalsNumberTheCasesInOrder() {
        // The composer caches values in arrays indexed by ordinal: two cases sharing one
        // would hand one placeholder's value to the other.
        #expect(TemplatePlaceholder.allCases.map(\.ordinal) == Array(TemplatePlaceholder.allCases.indices))
    }

    @Test func placeholdersAreSplitFromLiteralText() throws {
        let text = try TemplateText("Hi %DISPLAY_NAME%, reset %APP_NAME%: %LINK%", kind: .action(.passwordReset))
        #expect(text.placeholders == [.displayName, .appName, .link])
        let rendered = text.render { "[\($0.rawValue)]" }
        #expect(rendered == "Hi [DISPLAY_NAME], reset [APP_NAME]: [LINK]")
    }

    @Test func percentSignsThatAreNotPlaceholdersStayText() throws {
        let text = try TemplateText("<td width=\"100%\">50% off %%APP_NAME% %lower% % %", kind: .test)
        #expect(text.render { _ in "X" } == "<td width=\"100%\">50% off %X %lower% % %")
    }

    @Test func anUnknownPlaceholderIsAClearError() {
        #expect {
            try TemplateText("Hello %USER_NAME%", kind: .action(.passwordReset))
        } throws: { error in
            let message = (error as? TemplateError)?.message ?? ""
            return message.contains("unknown placeholder %USER_NAME%") && message.contains("%DISPLAY_NAME%")
        }
    }

    @Test func aPlaceholderOfAnotherKindIsRefused() {
        #expect {
            try TemplateText("Moving to %NEW_EMAIL%", kind: .action(.passwordReset))
        } throws: { error in
            (error as? TemplateError)?.message.contains("%NEW_EMAIL% is not available in PASSWORD_RESET") == true
        }
        #expect(throws: Never.self) { try TemplateText("Moving to %NEW_EMAIL%", kind: .action(.recoverEmail)) }
    }

    @Test func overridesAreValidatedWithEveryProblemNamed() {
        var settings = MailSettings()
        settings.templates = [
            "PASSWORD_RESET": [
                "it": MailTemplateOverride(subject: "Nuova password per %APP_NAME%"),
                "de": MailTemplateOverride(subject: "Passwort für %APP_NAME%"),
                "fa": MailTemplateOverride(subject: "two\nlines", text: "%LNK%"),
                "not a tag": MailTemplateOverride(subject: "x"),
            ],
            "WELCOME": ["en": MailTemplateOverride(subject: "Hi")],
        ]
        let problems = settings.problems()
        #expect(problems.contains { $0.contains("unknown kind \"WELCOME\"") })
        #expect(
            problems.contains {
                $0.contains("PASSWORD_RESET.de") && $0.contains("subject, html and text must all be set")
            }
        )
        #expect(problems.contains { $0.contains("PASSWORD_RESET.fa") && $0.contains("subject must be one line") })
        #expect(problems.contains { $0.contains("PASSWORD_RESET.fa") && $0.contains("unknown placeholder %LNK%") })
        #expect(problems.contains { $0.contains("\"not a tag\" is not a language tag") })
        #expect(!problems.contains { $0.contains("PASSWORD_RESET.it") })
    }

    @Test func aProjectWithABadTemplateIsRefused() {
        var project = DevelopmentSeed.project
        project.settings.mail.setOverride(
            MailTemplateOverride(text: "%OOPS%"),
            kind: .action(.verifyEmail),
            language: "en"
        )
        #expect(throws: ProjectValidationError.self) { try project.validated() }
        project.settings.mail.setOverride(
            MailTemplateOverride(text: "Verify: %LINK%"),
            kind: .action(.verifyEmail),
            language: "EN"
        )
        #expect(project.settings.mail.templates["VERIFY_EMAIL"]?.count == 1)
        #expect(throws: Never.self) { try project.validated() }
    }

    @Test func completeOverridesAddLanguages() {
        var settings = MailSettings()
        settings.setOverride(
            MailTemplateOverride(subject: "Passwort", html: "<p>%LINK%</p>", text: "%LINK%"),
            kind: .action(.passwordReset),
            language: "de"
        )
        #expect(settings.problems().isEmpty)
        #expect(settings.languages(for: .action(.passwordReset)) == ["en", "it", "fa", "de"])
        #expect(settings.languages(for: .action(.verifyEmail)) == ["en", "it", "fa"])
    }

    @Test func senderAndSMTPSettingsAreChecked() {
        let settings = MailSettings(
            from: "Example <not an address>",
            smtp: SMTPSettings(url: "http://mail.example.com", password: "a", passwordEnv: "B", timeoutSeconds: 0)
        )
        let problems = settings.problems()
        #expect(problems.contains { $0.hasPrefix("mail.from:") })
        #expect(problems.contains { $0.contains("smtp:// or smtps://") })
        #expect(problems.contains { $0.contains("timeoutSeconds") })
        #expect(problems.contains { $0.contains("password or passwordEnv") })
        #expect(
            MailSettings(
                from: "\"Ex, Inc.\" <noreply@example.com>",
                smtp: SMTPSettings(url: "smtps://u:p@mail.example.com:465")
            ).problems().isEmpty
        )
    }

    @Test func mailboxesParseAndPrintWithQuoting() throws {
        let plain = try MailAddress(parsing: "noreply@example.com")
        #expect(plain.displayName == nil && plain.domain == "example.com")
        let named = try MailAddress(parsing: "  \"A \\\"quoted\\\" \\\\ name\" <a.b+c@Example.COM> ")
        #expect(named.displayName == "A \"quoted\" \\ name")
        #expect(named.domain == "example.com")
        #expect(named.description == #""A \"quoted\" \\ name" <a.b+c@Example.COM>"#)
        #expect(try MailAddress(parsing: named.description) == named)
        let bare = try MailAddress(parsing: "Ex App <x@example.com>")
        #expect(bare.displayName == "Ex App")
        let accented = try MailAddress(parsing: "\"Zoë \\\"Ž\\\" 名前\" <z@example.com>")
        #expect(accented.displayName == "Zoë \"Ž\" 名前" && accented.address == "z@example.com")
        #expect(try MailAddress(parsing: accented.description) == accented)
        for bad in [
            "", "a", "@example.com", "a@", "a b@example.com", "a..b@example.com", "ä@example.com", "a@-x.com",
            "a@x..com", "<a@b.c>\r\nBcc: x@y.z", ".a@example.com", "a.@example.com", "a@x-.com", "a@x.com.",
            "a@" + String(repeating: "x", count: 64) + ".com", "a@@example.com",
        ] {
            #expect(throws: MailError.self, "\(bad)") { try MailAddress(parsing: bad) }
        }
        #expect(throws: MailError.self) { try MailAddress(address: "a@example.com", displayName: "line\r\nBcc: x") }
        #expect(throws: MailError.self) { try MailAddress(address: "a@example.com", displayName: "next\u{85}line") }
        for good in [
            "a@x-y.com", "a.b+c!#$%&'*/=?^_`{|}~-@example.com", "a@" + String(repeating: "x", count: 63) + ".com",
        ] {
            #expect(try MailAddress(parsing: good).address == good)
        }
    }
}
