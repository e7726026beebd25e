import HearthCore
import Testing

@Suite struct LanguageNegotiationTests {
    let builtIn = ["en", "it", "fa"]

    @Test func theExplicitLanguageWinsOverEveryOtherSource() {
        let preferences = LanguagePreferences(explicit: "fa", stored: "it", acceptLanguage: "it")
        #expect(LanguageNegotiation.choose(preferences, projectDefault: "it", available: builtIn) == "fa")
    }

    @Test func theSourcesAreTriedInOrderUntilOneMatches() {
        let stored = LanguagePreferences(explicit: "de", stored: "it", acceptLanguage: "fa")
        #expect(LanguageNegotiation.choose(stored, projectDefault: "en", available: builtIn) == "it")
        let header = LanguagePreferences(explicit: "de", stored: "ja", acceptLanguage: "fr, fa;q=0.4")
        #expect(LanguageNegotiation.choose(header, projectDefault: "it", available: builtIn) == "fa")
        let projectDefault = LanguagePreferences(explicit: "de", acceptLanguage: "fr")
        #expect(LanguageNegotiation.choose(projectDefault, projectDefault: "it", available: builtIn) == "it")
    }

    @Test func englishIsTheLastResort() {
        let preferences = LanguagePreferences(explicit: "de", acceptLanguage: "ja, zh;q=0.5")
        #expect(LanguageNegotiation.choose(preferences, projectDefault: "ru", available: builtIn) == "en")
        #expect(
            LanguageNegotiation.choose(LanguagePreferences(), projectDefault: nil, available: ["it", "fa"]) == "fa"
        )
    }

    @Test func aRegionalTagFallsBackToItsLanguage() {
        #expect(LanguageNegotiation.match("it-CH", in: builtIn) == "it")
        #expect(LanguageNegotiation.match("fa_IR", in: builtIn) == "fa")
        #expect(LanguageNegotiation.match("zh-Hant-TW", in: ["zh-Hant", "zh"]) == "zh-Hant")
        #expect(LanguageNegotiation.match("en-x-private", in: ["en"]) == "en")
        #expect(LanguageNegotiation.match("IT", in: builtIn) == "it")
    }

    @Test func aLanguageFindsARegionalTemplateWhenItHasNoPlainOne() {
        #expect(LanguageNegotiation.match("pt", in: ["en", "pt-PT", "pt-BR"]) == "pt-BR")
        #expect(LanguageNegotiation.match("pt-BR", in: ["en", "pt-PT", "pt-BR"]) == "pt-BR")
        #expect(LanguageNegotiation.match("de", in: builtIn) == nil)
    }

    @Test func acceptLanguageIsOrderedByQualityAndDropsZeroWildcardAndJunk() {
        let ranges = LanguageNegotiation.acceptLanguageRanges(
            "fr;q=0.5, *;q=0.9, it-CH, de;q=0, en;q=0.8, x$y, fa;q=2, es;q=0.8"
        )
        #expect(ranges == ["it-CH", "en", "es", "fr"])
        #expect(LanguageNegotiation.acceptLanguageRanges("") == [])
    }

    @Test func malformedTagsMatchNothing() {
        for tag in ["", "-", "e", "english-language-tag-that-is-way-too-long", "en--US", "1234", "en US", "<script>"] {
            #expect(LanguageNegotiation.match(tag, in: builtIn) == nil, "\(tag)")
        }
        #expect(LanguageNegotiation.canonical("pt_br") == "pt-BR")
        #expect(LanguageNegotiation.canonical("ZH-hant-tw") == "zh-Hant-TW")
    }
}
