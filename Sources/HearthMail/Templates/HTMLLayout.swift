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
        let rightToLeft = isRightToLeft(language)
        let direction = rightToLeft ? "rtl" : "ltr"
        let fonts =
            rightToLeft
            ? "Tahoma,Vazirmatn,'Segoe UI',Arial,sans-serif"
            : "-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif"
        return """
            <!DOCTYPE html>
            <html lang="\(escape(language))" dir="\(direction)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            </head>
            <body dir="\(direction)" style="margin:0;padding:24px 12px;background-color:#f4f4f5;">
            <div style="max-width:560px;margin:0 auto;padding:24px;background-color:#ffffff;border-radius:8px;\
            font-family:\(fonts);font-size:16px;line-height:1.5;color:#1f2328;text-align:\(rightToLeft ? "right" : "left");">
            \(content)
            </div>
            </body>
            </html>

            """
    }

    /// The style of the action button.
    static let buttonStyle =
        "display:inline-block;padding:12px 20px;background-color:#1a73e8;color:#ffffff;text-decoration:none;"
        + "border-radius:6px;font-weight:600;"

    /// Text made safe for HTML content and for double- or single-quoted attributes.
    static func escape(_ text: String) -> String {
        // Most values (addresses, links, names) need nothing: answer them as they are.
        guard text.utf8.contains(where: { escaped($0) != nil }) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            if let replacement = escaped(byte) {
                output.append(contentsOf: replacement)
            } else {
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let ampersand = Array("&amp;".utf8)
    private static let lessThan = Array("&lt;".utf8)
    private static let greaterThan = Array("&gt;".utf8)
    private static let quote = Array("&quot;".utf8)
    private static let apostrophe = Array("&#39;".utf8)

    /// The entity for a byte that HTML gives meaning to; these are all ASCII, so working on
    /// UTF-8 bytes never splits a character.
    private static func escaped(_ byte: UInt8) -> [UInt8]? {
        switch byte {
        case UInt8(ascii: "&"): ampersand
        case UInt8(ascii: "<"): lessThan
        case UInt8(ascii: ">"): greaterThan
        case UInt8(ascii: "\""): quote
        case UInt8(ascii: "'"): apostrophe
        default: nil
        }
    }
}
