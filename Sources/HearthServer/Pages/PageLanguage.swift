import HearthCore

/// The language of a hosted page: the link's `lang`, then the browser's `Accept-Language`,
/// then the project's default language, among the languages Hearth's emails ship in (a page
/// answers every link an email carries, in the email's language).
enum PageLanguage {
    /// The languages pages are written in: exactly the built-in email languages.
    static let tags = LanguagePack.builtInTags

    static func choose(requested: String?, acceptLanguage: String?, projectDefault: String?) -> DocumentLanguage {
        let tag = LanguageNegotiation.choose(
            LanguagePreferences(
                explicit: requested.flatMap { $0.isEmpty ? nil : $0 },
                acceptLanguage: acceptLanguage
            ),
            projectDefault: projectDefault,
            available: tags
        )
        return DocumentLanguage(tag)
    }

    /// A whole number as the language writes it (Persian digits in `fa`).
    static func number(_ value: Int, in language: DocumentLanguage) -> String {
        language.tag == "fa" ? LanguagePack.persianDigits(Int64(value)) : String(value)
    }
}

/// One page family's words in every page language: `Text` holds what the family's pages
/// say, and a copy has one for each of ``PageLanguage/tags`` (checked when it is made, so a
/// language added to the emails without its page words stops the server at start-up, and
/// the tests, instead of showing English by surprise).
struct PageCopy<Text: Sendable>: Sendable {
    private let texts: [String: Text]

    init(_ texts: [String: Text]) {
        for tag in PageLanguage.tags {
            precondition(texts[tag] != nil, "the hosted pages have no \(Text.self) in \(tag)")
        }
        self.texts = texts
    }

    /// The words in `language` (a tag ``PageLanguage/choose`` answered).
    subscript(language: DocumentLanguage) -> Text {
        texts[language.tag] ?? texts["en"] ?? texts[PageLanguage.tags[0]]!
    }
}

/// Page words with placeholders, made into HTML.
enum PageHTML {
    /// `template` (plain text with `{name}` placeholders) escaped, each placeholder replaced by
    /// its HTML fragment (already escaped by whoever made it).
    static func fill(_ template: String, _ fragments: [String: String] = [:]) -> String {
        substitute(template, fragments, escaping: true)
    }

    /// `template` with each `{name}` replaced by its plain-text value (for text escaped later,
    /// such as a heading).
    static func plain(_ template: String, _ values: [String: String]) -> String {
        substitute(template, values, escaping: false)
    }

    /// One pass over `template`: a value is never searched for placeholders itself. A `{…}`
    /// with no value stays as written.
    private static func substitute(_ template: String, _ values: [String: String], escaping: Bool) -> String {
        var output = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            output += escaping ? HTMLText.escape(String(rest[..<open])) : String(rest[..<open])
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}"),
                let value = values[String(rest[afterOpen..<close])]
            else {
                output += "{"
                rest = rest[afterOpen...]
                continue
            }
            output += value
            rest = rest[rest.index(after: close)...]
        }
        output += escaping ? HTMLText.escape(String(rest)) : String(rest)
        return output
    }

    /// A link the browser tests find by `id`: `href` and `label` are plain text, escaped here.
    static func link(id: String, href: String, label: String, class className: String? = nil) -> String {
        let classAttribute = className.map { " class=\"\($0)\"" } ?? ""
        return "<a id=\"\(id)\"\(classAttribute) href=\"\(HTMLText.escape(href))\">\(HTMLText.escape(label))</a>"
    }

    /// An email address (or any left-to-right value) inside text of either direction, in an
    /// element that isolates its direction; `id` names the element when given.
    static func isolated(_ text: String, id: String? = nil) -> String {
        let identifier = id.map { " id=\"\($0)\"" } ?? ""
        return "<bdi\(identifier) class=\"value\">\(HTMLText.escape(text))</bdi>"
    }
}
