/// A template text (of an email or a hosted page) split into literal runs and
/// `%PLACEHOLDER%`s, checked when it is made: a `%NAME%` (upper-case letters, digits and
/// underscores, starting with a letter) that is not one of the allowed placeholders is an
/// error, so a typo is caught when the template is set rather than shown as-is. Any other
/// `%` is literal text (`width:100%`).
public struct TemplateText: Sendable, Equatable {
    public enum Segment: Sendable, Equatable {
        case literal(String)
        case placeholder(TemplatePlaceholder)
    }

    public let segments: [Segment]
    /// The text as written, placeholders and all.
    public let source: String
    /// The bytes of the literal runs, to size a rendering before it is written.
    private let literalByteCount: Int

    /// Parses `text`, allowing `allowed`; `context` names the template in errors
    /// (`PASSWORD_RESET templates may use …`).
    public init(_ text: String, allowing allowed: [TemplatePlaceholder], in context: String) throws(TemplateError) {
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
            guard let placeholder = TemplatePlaceholder(rawValue: String(name)) else {
                throw TemplateError(
                    "unknown placeholder %\(name)%; \(context) templates may use "
                        + allowed.map(\.token).joined(separator: ", ")
                )
            }
            guard allowed.contains(placeholder) else {
                throw TemplateError(
                    "placeholder \(placeholder.token) is not available in \(context) templates, which may use "
                        + allowed.map(\.token).joined(separator: ", ")
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
    public var placeholders: Set<TemplatePlaceholder> {
        Set(segments.compactMap { if case .placeholder(let placeholder) = $0 { placeholder } else { nil } })
    }

    /// The text with every placeholder replaced by `value(placeholder)`; literal runs are
    /// kept as written (they are the template author's markup).
    public func render(_ value: (TemplatePlaceholder) -> String) -> String {
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
public struct TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A value a template refers to as `%NAME%` (Firebase's console uses the same names for
/// emails; hosted pages use the same values).
public enum TemplatePlaceholder: String, Sendable, CaseIterable {
    case appName = "APP_NAME"
    case displayName = "DISPLAY_NAME"
    case email = "EMAIL"
    case newEmail = "NEW_EMAIL"
    case link = "LINK"
    case expiry = "EXPIRY"

    /// How it is written in a template: `%APP_NAME%`.
    public var token: String { "%\(rawValue)%" }

    /// The placeholder's place in `allCases`, for tables indexed by placeholder.
    public var ordinal: Int {
        switch self {
        case .appName: 0
        case .displayName: 1
        case .email: 2
        case .newEmail: 3
        case .link: 4
        case .expiry: 5
        }
    }
}
