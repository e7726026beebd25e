extension StringProtocol {
    /// The text without leading and trailing ASCII whitespace (space, tab, CR, LF); other
    /// Unicode spaces are left alone, as wire formats only ever pad with these.
    public func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
