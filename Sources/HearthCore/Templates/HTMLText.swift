import HearthBase

/// HTML escaping of text placed in content or in quoted attributes.
public enum HTMLText {
    /// Text made safe for HTML content and for double- or single-quoted attributes.
    public static func escape(_ text: String) -> String {
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
