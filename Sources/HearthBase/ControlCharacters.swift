/// The control characters (Unicode category Cc: U+0000–U+001F and U+007F–U+009F), found on
/// UTF-8 bytes: the C0 ones and DEL are single bytes, the C1 ones are 0xC2 followed by
/// 0x80–0x9F (a byte that never starts a character, so the pair cannot be misread).
public enum ControlCharacters {
    public static func occur(in text: some StringProtocol) -> Bool {
        var afterC2 = false
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F || (afterC2 && byte >= 0x80 && byte <= 0x9F) { return true }
            afterC2 = byte == 0xC2
        }
        return false
    }
}
