import HearthCore

/// The HTML document every email body sits in: it opens with the language's `lang` and
/// `dir` (`DocumentLanguage.htmlOpening`), so right-to-left text is laid out and aligned
/// correctly, and gives the message a plain, readable frame with inline styles (mail
/// clients drop style sheets).
enum HTMLLayout {
    /// The document around an email's content in `language`, as templates keep it.
    static func frame(language: String) -> MailBodyTemplate.Frame {
        let documentLanguage = DocumentLanguage(language)
        let frame = documentLanguage.isRightToLeft ? rightToLeftFrame : leftToRightFrame
        return MailBodyTemplate.Frame(
            beforeTitle: documentLanguage.htmlOpening + frame.beforeTitle,
            beforeContent: frame.beforeContent,
            afterContent: frame.afterContent
        )
    }

    /// The fixed text of a document after its root element, around its two variable parts.
    struct Frame {
        let beforeTitle: String
        let beforeContent: String
        let afterContent: String
        init(_ direction: TextDirection) {
            let rightToLeft = direction == .rightToLeft
            let fonts =
                rightToLeft
                ? "Tahoma,Vazirmatn,'Segoe UI',Arial,sans-serif"
                : "-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif"
            beforeTitle = """

                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>
                """
            beforeContent = """
                </title>
                </head>
                <body dir="\(direction.rawValue)" style="margin:0;padding:24px 12px;background-color:#f4f4f5;">
                <div style="max-width:560px;margin:0 auto;padding:24px;background-color:#ffffff;border-radius:8px;\
                font-family:\(fonts);font-size:16px;line-height:1.5;color:#1f2328;text-align:\(rightToLeft ? "right" : "left");">

                """
            afterContent = """

                </div>
                </body>
                </html>

                """
        }
    }

    private static let leftToRightFrame = Frame(.leftToRight)
    private static let rightToLeftFrame = Frame(.rightToLeft)

    /// The style of the action button.
    static let buttonStyle =
        "display:inline-block;padding:12px 20px;background-color:#1a73e8;color:#ffffff;text-decoration:none;"
        + "border-radius:6px;font-weight:600;"
}
