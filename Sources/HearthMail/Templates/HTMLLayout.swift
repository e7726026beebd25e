import HearthCore

/// The HTML document every email body sits in: it declares the language and the writing
/// direction (`<html lang="fa" dir="rtl">`), so right-to-left text is laid out and aligned
/// correctly, and gives the message a plain, readable frame with inline styles (mail
/// clients drop style sheets).
enum HTMLLayout {
    /// Languages written right to left (by primary language subtag).
    static let rightToLeftLanguages: Set<String> = ["ar", "ckb", "dv", "fa", "he", "iw", "ps", "sd", "ug", "ur", "yi"]

    static func isRightToLeft(_ tag: String) -> Bool {
        rightToLeftLanguages.contains(String(tag.lowercased().prefix { $0 != "-" }))
    }

    /// The document around an email's content in `language`, as templates keep it.
    static func frame(language: String) -> MailBodyTemplate.Frame {
        let frame = isRightToLeft(language) ? rightToLeftFrame : leftToRightFrame
        return MailBodyTemplate.Frame(
            beforeTitle: frame.beforeLanguage + HTMLText.escape(language) + frame.beforeTitle,
            beforeContent: frame.beforeContent,
            afterContent: frame.afterContent
        )
    }

    /// The fixed text of a document, around its three variable parts.
    struct Frame {
        let beforeLanguage: String
        let beforeTitle: String
        let beforeContent: String
        let afterContent: String
        init(rightToLeft: Bool) {
            let direction = rightToLeft ? "rtl" : "ltr"
            let fonts =
                rightToLeft
                ? "Tahoma,Vazirmatn,'Segoe UI',Arial,sans-serif"
                : "-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif"
            beforeLanguage = """
                <!DOCTYPE html>
                <html lang="
                """
            beforeTitle = """
                " dir="\(direction)">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>
                """
            beforeContent = """
                </title>
                </head>
                <body dir="\(direction)" style="margin:0;padding:24px 12px;background-color:#f4f4f5;">
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

    private static let leftToRightFrame = Frame(rightToLeft: false)
    private static let rightToLeftFrame = Frame(rightToLeft: true)

    /// The style of the action button.
    static let buttonStyle =
        "display:inline-block;padding:12px 20px;background-color:#1a73e8;color:#ffffff;text-decoration:none;"
        + "border-radius:6px;font-weight:600;"
}
