import HearthCore
import Testing

@Suite struct DocumentLanguageTests {
    @Test("right-to-left languages are known by their primary subtag, in any case and form")
    func directionFollowsThePrimaryLanguage() {
        #expect(TextDirection(language: "fa") == .rightToLeft)
        #expect(TextDirection(language: "AR-eg") == .rightToLeft)
        #expect(TextDirection(language: "he_IL") == .rightToLeft)
        #expect(TextDirection(language: "en") == .leftToRight)
        #expect(TextDirection(language: "far") == .leftToRight)  // Fataleka, not Persian
    }

    @Test("the document opening declares the language and its direction, escaped")
    func openingCarriesLangAndDir() {
        #expect(DocumentLanguage("fa").htmlOpening == "<!DOCTYPE html>\n<html lang=\"fa\" dir=\"rtl\">")
        #expect(DocumentLanguage("it").htmlAttributes == "lang=\"it\" dir=\"ltr\"")
        #expect(DocumentLanguage("x\"><script>").htmlAttributes == "lang=\"x&quot;&gt;&lt;script&gt;\" dir=\"ltr\"")
    }

    @Test("every shipped language has a pack found by its tag, and negotiation lands on one")
    func languagePacksAreFoundByTag() {
        #expect(LanguagePack.builtInTags == ["en", "it", "fa"])
        #expect(LanguagePack.builtIn("FA")?.language.isRightToLeft == true)
        #expect(LanguagePack.builtIn("de") == nil)
        let chosen = LanguageNegotiation.choose(
            LanguagePreferences(acceptLanguage: "de-CH, it;q=0.8"),
            projectDefault: "en",
            available: LanguagePack.builtInTags
        )
        #expect(LanguagePack.builtIn(chosen)?.tag == "it")
    }

    @Test("HTML escaping covers content and both attribute quotes")
    func escapingCoversTheFiveCharacters() {
        #expect(HTMLText.escape(#"<a href='x'>"&"</a>"#) == "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;")
        #expect(HTMLText.escape("plain ادا") == "plain ادا")
    }
}
