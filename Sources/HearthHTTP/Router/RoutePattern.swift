/// A parsed route pattern such as `/v1/projects/{project}/installations/{fid}/authTokens:generate`.
///
/// Each segment is a literal (`installations`, `accounts:sendOobCode`), a parameter (`{fid}`)
/// that takes a whole non-empty segment, or a parameter with a verb (`{resource}:verify`) that
/// takes a segment ending in `:verify` and binds what comes before the colon.
struct RoutePattern: Sendable, Equatable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case parameterWithVerb(name: String, verb: String)
    }

    let segments: [Segment]

    /// Parses `pattern`; a malformed pattern is a programming error and stops the process.
    init(_ pattern: String) {
        precondition(pattern.hasPrefix("/"), "route pattern \(pattern) must start with /")
        var raw = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if raw.last?.isEmpty == true { raw = raw.dropLast() }
        segments = raw.map { text in
            precondition(!text.isEmpty, "route pattern \(pattern) has an empty segment")
            guard text.hasPrefix("{") else {
                precondition(
                    !text.contains("{") && !text.contains("}"),
                    "route pattern \(pattern): braces inside \(text)"
                )
                return .literal(String(text))
            }
            guard let close = text.firstIndex(of: "}") else {
                preconditionFailure("route pattern \(pattern): unclosed {")
            }
            let name = String(text[text.index(after: text.startIndex)..<close])
            precondition(!name.isEmpty, "route pattern \(pattern): empty parameter name")
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return .parameter(name) }
            precondition(
                rest.hasPrefix(":") && rest.count > 1,
                "route pattern \(pattern): expected :verb after {\(name)}"
            )
            return .parameterWithVerb(name: name, verb: String(rest.dropFirst()))
        }
    }
}
