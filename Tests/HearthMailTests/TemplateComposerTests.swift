import HearthCore
import HearthMail
import HearthWire
import Testing

@Suite struct TemplateComposerTests {
    let composer = TemplateComposer()

    @Test func hostileValuesAreEscapedInHTMLAndKeptOnOneLine() throws {
        let project = exampleProject { $0.settings.appName = "<b>Evil</b> & \"Co\"" }
        var request = sampleRequest(.action(.passwordReset), language: "en", project: project)
        request.displayName = "<script>alert('x')</script>\r\nBcc: victim@example.com"
        let mail = try composer.compose(request)
        #expect(!mail.html.contains("<script>"))
        #expect(!mail.html.contains("<b>Evil</b>"))
        #expect(mail.html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; Bcc: victim@example.com"))
        #expect(
            mail.html.contains("<title>Reset your password for &lt;b&gt;Evil&lt;/b&gt; &amp; &quot;Co&quot;</title>")
        )
        #expect(mail.subject == "Reset your password for <b>Evil</b> & \"Co\"")
        #expect(mail.to.displayName == "<script>alert('x')</script> Bcc: victim@example.com")
        #expect(mail.text.contains("Hello <script>alert('x')</script> Bcc: victim@example.com,"))
        #expect(!mail.text.contains("\r"))
    }

    @Test func persianIsLaidOutRightToLeft() throws {
        let mail = try composer.compose(sampleRequest(.action(.verifyEmail), language: "fa"))
        #expect(mail.language == "fa")
        #expect(mail.html.contains("<html lang=\"fa\" dir=\"rtl\">"))
        #expect(mail.html.contains("<body dir=\"rtl\""))
        #expect(mail.html.contains("text-align:right"))
        #expect(mail.html.contains("<span dir=\"ltr\">ada@example.com</span>"))
        #expect(mail.subject == "تأیید نشانی ایمیل برای Example App")
        #expect(mail.text.contains("۳ روز"))
    }

    @Test func theLanguageIsNegotiatedFromTheRequest() throws {
        var request = sampleRequest(.action(.emailLink), language: "en")
        request.languages = LanguagePreferences(acceptLanguage: "de-DE, it-CH;q=0.9, fa;q=0.5")
        #expect(try composer.compose(request).language == "it")
        request.languages = LanguagePreferences(explicit: "ja", stored: "fa-IR")
        #expect(try composer.compose(request).language == "fa")
        request.languages = LanguagePreferences()
        request.project.settings.defaultLanguage = "it"
        #expect(try composer.compose(request).language == "it")
    }

    @Test func anOverrideReplacesOnlyTheGivenParts() throws {
        let project = exampleProject {
            $0.settings.mail.setOverride(
                MailTemplateOverride(subject: "%APP_NAME%: nuova password (%EXPIRY%)"),
                kind: .action(.passwordReset),
                language: "it"
            )
        }
        let mail = try composer.compose(sampleRequest(.action(.passwordReset), language: "it", project: project))
        #expect(mail.subject == "Example App: nuova password (1 ora)")
        #expect(mail.text.hasPrefix("Ciao Ada Lovelace,"))
    }

    @Test func aCompleteOverrideAddsALanguage() throws {
        let project = exampleProject {
            $0.settings.mail.setOverride(
                MailTemplateOverride(
                    subject: "Passwort für %APP_NAME% zurücksetzen",
                    html: "<p>Hallo %DISPLAY_NAME%, <a href=\"%LINK%\">hier</a>.</p>",
                    text: "Hallo %DISPLAY_NAME%: %LINK%"
                ),
                kind: .action(.passwordReset),
                language: "de"
            )
        }
        var request = sampleRequest(.action(.passwordReset), language: "de-AT", project: project)
        request.displayName = "<i>Ada</i>"
        let mail = try composer.compose(request)
        #expect(mail.language == "de")
        #expect(mail.html.contains("<html lang=\"de\" dir=\"ltr\">"))
        #expect(
            mail.html.contains(
                "<p>Hallo &lt;i&gt;Ada&lt;/i&gt;, <a href=\"https://example.com/__/auth/action?mode=resetPassword&amp;oobCode=CODE"
            )
        )
        #expect(
            mail.text
                == "Hallo <i>Ada</i>: https://example.com/__/auth/action?mode=resetPassword&oobCode=CODE&apiKey=KEY&lang=de-AT"
        )
        // Another kind has no German template and falls back to English.
        #expect(
            try composer.compose(sampleRequest(.action(.verifyEmail), language: "de", project: project)).language
                == "en"
        )
    }

    @Test func actionEmailsNeedAWebLinkAndAValidRecipient() throws {
        var request = sampleRequest(.action(.passwordReset), language: "en")
        request.link = nil
        #expect(throws: MailError(.missingValue, "a PASSWORD_RESET email needs a link")) {
            try composer.compose(request)
        }
        request.link = "javascript:alert(1)"
        #expect { try composer.compose(request) } throws: { ($0 as? MailError)?.code == .invalidLink }
        for link in [
            "https://a.example/x y", "https://a.example/\u{7F}", "https://a.example/\u{85}", "https://a.example/\n",
        ] {
            request.link = link
            let error = #expect(throws: MailError.self, "\(link)") { try composer.compose(request) }
            #expect(error?.code == .invalidLink)
        }
        // Outside ASCII, a link without spaces or control characters is fine.
        request.link = "https://bücher.example/ç?x=\u{A0}"
        #expect(try composer.compose(request).body.value(of: .link) == request.link)
        request = sampleRequest(.action(.recoverEmail), language: "en")
        request.newEmail = nil
        #expect { try composer.compose(request) } throws: { ($0 as? MailError)?.code == .missingValue }
        request = sampleRequest(.test, language: "en")
        request.recipient = "not an address"
        #expect { try composer.compose(request) } throws: { ($0 as? MailError)?.code == .invalidAddress }
    }

    @Test func theSenderAndTheDeadlineComeFromTheProject() throws {
        let mail = try composer.compose(sampleRequest(.action(.emailLink), language: "en"))
        #expect(mail.from.description == "\"Example App\" <noreply@demo-project.hearth.local>")
        #expect(mail.deliverWithinSeconds == Int64(6 * 3_600))
        let configured = exampleProject {
            $0.settings.mail.from = "Support <support@example.com>"
            $0.settings.mail.replyTo = "help@example.com"
        }
        let test = try composer.compose(sampleRequest(.test, language: "en", project: configured))
        #expect(test.from.description == "\"Support\" <support@example.com>")
        #expect(test.replyTo?.address == "help@example.com")
        #expect(test.deliverWithinSeconds == nil)
    }
}
