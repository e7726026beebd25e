extension StringProtocol {
    /// The text without leading and trailing ASCII whitespace (space, tab, CR, LF); other
    /// Unicode spaces are left alone, as wire formats only ever pad with these. Scanned as
    /// bytes: these are all ASCII, so a cut never splits a character's encoding.
    public func trimmingASCIIWhitespace() -> String {
        let text = Substring(self)
        let bytes = text.utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else {
            return ""
        }
        return String(text[first...last])
    }
}
