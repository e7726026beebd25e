import HearthBase
import HearthCrypto
public import HearthStore
import Synchronization

/// The bodies of an email as the template they are rendered from and the values that fill it.
///
/// Messages are queued this way: the template is stored once under its key, each message
/// with its values only, instead of two rendered documents per message. The message still
/// renders to the same bytes whenever it is sent, retried or shown, even after the project's
/// templates changed meanwhile: the template it was queued with is the one it keeps.
public struct MailBody: Sendable, Equatable {
    public let template: MailBodyTemplate
    /// The plain (unescaped) value of each placeholder the template uses, by `ordinal`.
    private let values: [String?]

    /// The body of `template` with `value(placeholder)` for each placeholder it uses.
    public init(template: MailBodyTemplate, value: (TemplatePlaceholder) -> String) {
        self.template = template
        var values = [String?](repeating: nil, count: TemplatePlaceholder.allCases.count)
        for placeholder in template.placeholders { values[placeholder.ordinal] = value(placeholder) }
        self.values = values
    }

    /// A stored body: its template, and its values as `encodedValues` wrote them.
    public init(template: MailBodyTemplate, encodedValues: String) throws(MailError) {
        guard let object = try? JSONValue.parse(encodedValues.utf8).objectValue else {
            throw MailError(.invalidTemplate, "the stored values of a message are not a JSON object")
        }
        self.template = template
        var values = [String?](repeating: nil, count: TemplatePlaceholder.allCases.count)
        for (name, value) in object.members {
            guard let placeholder = TemplatePlaceholder(rawValue: name), let text = value.stringValue else {
                throw MailError(
                    .invalidTemplate,
                    "the stored values of a message hold \(name), which is no placeholder's text"
                )
            }
            values[placeholder.ordinal] = text
        }
        self.values = values
    }

    /// The plain value of `placeholder`, if the template uses it.
    public func value(of placeholder: TemplatePlaceholder) -> String? { values[placeholder.ordinal] }

    /// The values as they are stored: a JSON object by placeholder name.
    public var encodedValues: String {
        var writer = JSONWriter(reservingCapacity: 512)
        writer.beginObject()
        for placeholder in TemplatePlaceholder.allCases {
            guard let value = values[placeholder.ordinal] else { continue }
            writer.key(placeholder.rawValue)
            writer.string(value)
        }
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The HTML document, titled `subject`; every value is escaped.
    public func html(subject: String) -> String {
        let frame = template.frame
        let escaped = values.map { $0.map(HTMLText.escape) }
        var document = frame.beforeTitle
        document += HTMLText.escape(subject)
        document += frame.beforeContent
        document += template.html.render { escaped[$0.ordinal] ?? "" }
        document += frame.afterContent
        return document
    }

    /// The plain-text body.
    public var text: String {
        template.text.render { value(of: $0) ?? "" }
    }
}

/// A template as messages are rendered from it: the HTML content and its document around it
/// (the text before the title, between the title and the content, and after the content), and
/// the plain text.
///
/// `source` is what the store keeps and `key` (its SHA-256) what messages refer to it by, so
/// the same template has the same key on every node and is stored once.
public struct MailBodyTemplate: Sendable, Equatable {
    public struct Frame: Sendable, Equatable {
        public var beforeTitle: String
        public var beforeContent: String
        public var afterContent: String

        public init(beforeTitle: String, beforeContent: String, afterContent: String) {
            self.beforeTitle = beforeTitle
            self.beforeContent = beforeContent
            self.afterContent = afterContent
        }
    }

    public let kind: MailKind
    public let frame: Frame
    public let html: TemplateText
    public let text: TemplateText
    public let source: String
    public let key: [UInt8]

    public init(kind: MailKind, frame: Frame, html: TemplateText, text: TemplateText) {
        var writer = JSONWriter(reservingCapacity: 4096)
        writer.beginObject()
        writer.key("kind")
        writer.string(kind.rawValue)
        for (name, part) in [
            ("beforeTitle", frame.beforeTitle), ("beforeContent", frame.beforeContent),
            ("afterContent", frame.afterContent), ("html", html.source), ("text", text.source),
        ] {
            writer.key(name)
            writer.string(part)
        }
        writer.endObject()
        self.init(
            kind: kind,
            frame: frame,
            html: html,
            text: text,
            source: String(decoding: writer.bytes, as: UTF8.self),
            key: SHA256.hash(writer.bytes)
        )
    }

    /// A template with its source and key as given: a stored template keeps the very bytes it
    /// was stored with, whatever a later version would write for the same parts.
    private init(
        kind: MailKind,
        frame: Frame,
        html: TemplateText,
        text: TemplateText,
        source: String,
        key: [UInt8]
    ) {
        self.kind = kind
        self.frame = frame
        self.html = html
        self.text = text
        self.source = source
        self.key = key
        placeholders = html.placeholders.union(text.placeholders)
    }

    /// The placeholders the bodies use.
    public let placeholders: Set<TemplatePlaceholder>

    /// The template stored as `source` under `key`: parsed once, then kept in memory.
    public static func stored(key: [UInt8], source: String) throws(MailError) -> MailBodyTemplate {
        if let known = parsed.withLock({ $0[key] }) { return known }
        guard SHA256.hash(utf8Of: source) == key else {
            throw MailError(.invalidTemplate, "a stored mail template does not match its key")
        }
        let template = try parse(source, key: key)
        parsed.withLock { cache in
            if cache.count >= maximumParsed { cache.removeAll() }
            cache[key] = template
        }
        return template
    }

    /// Templates parsed from the store, by key (few: one per template version in use).
    private static let parsed = Mutex<[[UInt8]: MailBodyTemplate]>([:])
    private static let maximumParsed = 256

    private static func parse(_ source: String, key: [UInt8]) throws(MailError) -> MailBodyTemplate {
        let object = try? JSONValue.parse(source.utf8)
        func part(_ name: String) throws(MailError) -> String {
            guard let text = object?[name]?.stringValue else {
                throw MailError(.invalidTemplate, "a stored mail template has no \(name)")
            }
            return text
        }
        guard let kind = MailKind(rawValue: try part("kind")) else {
            throw MailError(.invalidTemplate, "a stored mail template is of an unknown kind")
        }
        do {
            return MailBodyTemplate(
                kind: kind,
                frame: Frame(
                    beforeTitle: try part("beforeTitle"),
                    beforeContent: try part("beforeContent"),
                    afterContent: try part("afterContent")
                ),
                html: try TemplateText(try part("html"), kind: kind),
                text: try TemplateText(try part("text"), kind: kind),
                source: source,
                key: key
            )
        } catch let error as MailError {
            throw error
        } catch {
            throw MailError(.invalidTemplate, "a stored mail template is invalid: \(error)")
        }
    }
}

/// A message's bodies as the outbox keeps them: the template and values it was queued with
/// (rendered when asked for), or, for a message queued by an older version, rendered.
public enum StoredMailBodies: Sendable, Equatable {
    case template(MailBody)
    case rendered(html: String, text: String)

    /// The HTML document (a template's is titled `subject`).
    public func html(subject: String) -> String {
        switch self {
        case .template(let body): body.html(subject: subject)
        case .rendered(let html, _): html
        }
    }

    public var text: String {
        switch self {
        case .template(let body): body.text
        case .rendered(_, let text): text
        }
    }
}

extension OutboxRecord {
    /// The bodies to send or show, rendered; `nil` once purged.
    public func bodies() throws(MailError) -> (html: String, text: String)? {
        try storedBodies().map { ($0.html(subject: subject), $0.text) }
    }

    /// The bodies as stored (nothing rendered yet); `nil` once purged.
    public func storedBodies() throws(MailError) -> StoredMailBodies? {
        if let template, let templateValues {
            return .template(
                try MailBody(
                    template: try MailBodyTemplate.stored(key: template.key, source: template.source),
                    encodedValues: templateValues
                )
            )
        }
        guard let htmlBody, let textBody else { return nil }
        return .rendered(html: htmlBody, text: textBody)
    }
}
