import HearthBase

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

    /// A complete document around `content` (HTML already escaped where needed).
    static func document(language: String, title: String, content: String) -> String {
        let frame = isRightToLeft(language) ? rightToLeftFrame : leftToRightFrame
        let language = escape(language)
        let title = escape(title)
        var document = ""
        document.reserveCapacity(
            frame.byteCount + language.utf8.count + title.utf8.count + content.utf8.count
        )
        document += frame.beforeLanguage
        document += language
        document += frame.beforeTitle
        document += title
        document += frame.beforeContent
        document += content
        document += frame.afterContent
        return document
    }

    /// The fixed text of a document, around its three variable parts.
    struct Frame {
        let beforeLanguage: String
        let beforeTitle: String
        let beforeContent: String
        let afterContent: String
        var byteCount: Int {
            [beforeLanguage, beforeTitle, beforeContent, afterContent].reduce(0) { $0 + $1.utf8.count }
        }

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

    /// Text made safe for HTML content and for double- or single-quoted attributes.
    static func escape(_ text: String) -> String {
        let special = specialBytes
        var extra = 0
        for byte in text.utf8 where special.contains(byte) { extra += entity(byte).count - 1 }
        // Most values (addresses, names) need nothing: answer them as they are.
        if extra == 0 { return text }
        return String(unsafeUninitializedCapacity: text.utf8.count + extra) { output in
            var position = 0
            for byte in text.utf8 {
                if special.contains(byte) {
                    for entityByte in entity(byte) {
                        output[position] = entityByte
                        position += 1
                    }
                } else {
                    output[position] = byte
                    position += 1
                }
            }
            return position
        }
    }

    /// The bytes HTML gives meaning to; all ASCII, so working on UTF-8 bytes never splits a
    /// character.
    private static let specialBytes = ByteSet("&<>\"'".utf8)

    private static let ampersand = Array("&amp;".utf8)
    private static let lessThan = Array("&lt;".utf8)
    private static let greaterThan = Array("&gt;".utf8)
    private static let quote = Array("&quot;".utf8)
    private static let apostrophe = Array("&#39;".utf8)

    private static func entity(_ byte: UInt8) -> [UInt8] {
        switch byte {
        case UInt8(ascii: "&"): ampersand
        case UInt8(ascii: "<"): lessThan
        case UInt8(ascii: ">"): greaterThan
        case UInt8(ascii: "\""): quote
        default: apostrophe
        }
    }
}
