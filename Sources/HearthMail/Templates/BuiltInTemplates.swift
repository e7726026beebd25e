import HearthCore

/// A template in one language: the subject, and the bodies (the HTML content in its
/// `HTMLLayout` document, and the plain text), with their placeholders parsed.
struct MailTemplateSet: Sendable {
    var language: String
    var subject: TemplateText
    var body: MailBodyTemplate

    init(kind: MailKind, language: String, subject: TemplateText, html: TemplateText, text: TemplateText) {
        self.language = language
        self.subject = subject
        body = MailBodyTemplate(kind: kind, frame: HTMLLayout.frame(language: language), html: html, text: text)
    }
}

/// Hearth's own templates: every kind in every built-in language, laid out from the
/// language packs once, when first used.
enum BuiltInTemplates {
    static func template(_ kind: MailKind, language: String) -> MailTemplateSet? {
        all[kind]?[language.lowercased()]
    }

    /// The raw template texts (as an override would write them), for showing and fixtures.
    static func source(_ kind: MailKind, language: String) -> (subject: String, html: String, text: String)? {
        guard let pack = LanguagePack.builtIn(language), let copy = pack.copies[kind] else { return nil }
        return (copy.subject, html(copy, pack), text(copy, pack))
    }

    private static let all: [MailKind: [String: MailTemplateSet]] = {
        var all: [MailKind: [String: MailTemplateSet]] = [:]
        for pack in LanguagePack.all {
            for kind in MailKind.allCases {
                guard let source = source(kind, language: pack.tag) else {
                    preconditionFailure("built-in \(kind.rawValue) template missing in \(pack.tag)")
                }
                do {
                    all[kind, default: [:]][pack.tag] = MailTemplateSet(
                        kind: kind,
                        language: pack.tag,
                        subject: try TemplateText(source.subject, kind: kind),
                        html: try TemplateText(source.html, kind: kind),
                        text: try TemplateText(source.text, kind: kind)
                    )
                } catch {
                    preconditionFailure("built-in \(kind.rawValue) template in \(pack.tag) is invalid: \(error)")
                }
            }
        }
        return all
    }()

    private static func html(_ copy: LanguagePack.Copy, _ pack: LanguagePack) -> String {
        // Addresses and links are left-to-right runs; isolate them inside right-to-left text.
        let isolate = pack.language.isRightToLeft
        func paragraph(_ text: String) -> String {
            var escaped = HTMLText.escape(text)
            if isolate {
                for placeholder in [TemplatePlaceholder.email, .newEmail] {
                    escaped = escaped.replacing(
                        placeholder.token,
                        with: "<span dir=\"ltr\">\(placeholder.token)</span>"
                    )
                }
            }
            return "<p style=\"margin:0 0 16px;\">\(escaped)</p>"
        }
        var lines = [paragraph(copy.greeting)] + copy.paragraphs.map(paragraph)
        let link = TemplatePlaceholder.link.token
        if let button = copy.button {
            lines.append(
                "<p style=\"margin:24px 0;\"><a href=\"\(link)\" style=\"\(HTMLLayout.buttonStyle)\">"
                    + "\(HTMLText.escape(button))</a></p>"
            )
        }
        lines += copy.notes.map(paragraph)
        if copy.button != nil {
            lines.append(
                "<p style=\"margin:0 0 16px;font-size:13px;color:#57606a;\">\(HTMLText.escape(pack.linkFallback))<br>"
                    + "<a href=\"\(link)\" dir=\"ltr\" style=\"color:#1a73e8;word-break:break-all;\">\(link)</a></p>"
            )
        }
        lines.append(
            "<p style=\"margin:0;\">" + pack.signature.map(HTMLText.escape).joined(separator: "<br>") + "</p>"
        )
        return lines.joined(separator: "\n")
    }

    private static func text(_ copy: LanguagePack.Copy, _ pack: LanguagePack) -> String {
        var blocks = [copy.greeting] + copy.paragraphs
        if copy.button != nil { blocks.append(TemplatePlaceholder.link.token) }
        blocks += copy.notes
        blocks.append(pack.signature.joined(separator: "\n"))
        return blocks.joined(separator: "\n\n") + "\n"
    }
}
