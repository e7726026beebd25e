/// A template text split into literal runs and `%PLACEHOLDER%`s, checked when it is made:
/// a `%NAME%` (upper-case letters, digits and underscores, starting with a letter) that is
/// not a placeholder of the template's kind is an error, so a typo is caught when the
/// template is set rather than mailed as-is. Any other `%` is literal text (`width:100%`).
public struct MailTemplateText: Sendable, Equatable {
    public enum Segment: Sendable, Equatable {
        case literal(String)
        case placeholder(MailPlaceholder)
    }

    public let segments: [Segment]
    /// The text as written, placeholders and all.
    public let source: String
    /// The bytes of the literal runs, to size a rendering before it is written.
    private let literalByteCount: Int

    /// Parses `text`, allowing the placeholders of `kind`.
    public init(_ text: String, kind: MailKind) throws(MailTemplateError) {
        source = text
        var segments: [Segment] = []
        var literal = ""
        var rest = Substring(text)
        while let percent = rest.firstIndex(of: "%") {
            literal += rest[..<percent]
            let afterPercent = rest.index(after: percent)
            let name = rest[afterPercent...].prefix { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }
            let closing = name.endIndex
            guard let first = name.first, first.isLetter, closing < rest.endIndex, rest[closing] == "%" else {
                literal.append("%")
                rest = rest[afterPercent...]
                continue
            }
            guard let placeholder = MailPlaceholder(rawValue: String(name)) else {
                throw MailTemplateError(
                    "unknown placeholder %\(name)%; \(kind.rawValue) templates may use "
                        + kind.placeholders.map(\.token).joined(separator: ", ")
                )
            }
            guard kind.placeholders.contains(placeholder) else {
                throw MailTemplateError(
                    "placeholder \(placeholder.token) is not available in \(kind.rawValue) templates, which may use "
                        + kind.placeholders.map(\.token).joined(separator: ", ")
                )
            }
            if !literal.isEmpty { segments.append(.literal(literal)) }
            literal = ""
            segments.append(.placeholder(placeholder))
            rest = rest[rest.index(after: closing)...]
        }
        literal += rest
        if !literal.isEmpty { segments.append(.literal(literal)) }
        self.segments = segments
        literalByteCount = segments.reduce(0) { total, segment in
            if case .literal(let text) = segment { total + text.utf8.count } else { total }
        }
    }

    /// The placeholders the text uses.
    public var placeholders: Set<MailPlaceholder> {
        Set(segments.compactMap { if case .placeholder(let placeholder) = $0 { placeholder } else { nil } })
    }

    /// The text with every placeholder replaced by `value(placeholder)`; literal runs are
    /// kept as written (they are the template author's markup).
    public func render(_ value: (MailPlaceholder) -> String) -> String {
        var output = ""
        output.reserveCapacity(literalByteCount + 256)
        for segment in segments {
            switch segment {
            case .literal(let text): output += text
            case .placeholder(let placeholder): output += value(placeholder)
            }
        }
        return output
    }
}

/// A template that cannot be used, with the reason in words.
public struct MailTemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
