/// The direction a language is written in, as HTML's `dir` attribute names it.
public enum TextDirection: String, Sendable, Hashable {
    case leftToRight = "ltr"
    case rightToLeft = "rtl"

    /// Languages written right to left, by primary language subtag.
    private static let rightToLeftLanguages: Set<String> = [
        "ar", "ckb", "dv", "fa", "he", "iw", "ps", "sd", "ug", "ur", "yi",
    ]

    /// The direction of the language `tag` (a BCP 47 tag, any case).
    public init(language tag: String) {
        let primary = String(tag.lowercased().prefix { $0 != "-" && $0 != "_" })
        self = Self.rightToLeftLanguages.contains(primary) ? .rightToLeft : .leftToRight
    }
}

/// The language of an HTML document (an email body or a hosted page): its BCP 47 tag and
/// writing direction, which the document declares on its root element so that browsers and
/// mail clients lay out and align right-to-left text correctly.
public struct DocumentLanguage: Sendable, Hashable {
    /// The BCP 47 tag, as given (`fa`, `pt-BR`).
    public let tag: String
    public let direction: TextDirection

    public init(_ tag: String) {
        self.tag = tag
        direction = TextDirection(language: tag)
    }

    public var isRightToLeft: Bool { direction == .rightToLeft }

    /// The root element's attributes, escaped: `lang="fa" dir="rtl"`.
    public var htmlAttributes: String {
        "lang=\"\(HTMLText.escape(tag))\" dir=\"\(direction.rawValue)\""
    }

    /// The start of the document up to its root element: `<!DOCTYPE html>`, a line break,
    /// then `<html lang="fa" dir="rtl">`.
    public var htmlOpening: String {
        "<!DOCTYPE html>\n<html \(htmlAttributes)>"
    }
}
