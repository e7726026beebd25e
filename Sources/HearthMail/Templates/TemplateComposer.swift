import HearthBase
public import HearthCore
import Synchronization

/// Hearth's `MailComposer`: the project's override of a template where it has one (part by
/// part), else the built-in template, in the language negotiated among those the kind
/// exists in. Values are cleaned of control characters everywhere and HTML-escaped in the
/// HTML body, so a hostile display name or app name stays text.
public struct TemplateComposer: MailComposer {
    public init() {}

    public func compose(_ request: MailRequest) throws(MailError) -> ComposedMail {
        let project = request.project
        let kind = request.kind
        let settings = project.settings.mail
        let language = project.emailLanguage(for: kind, preferences: request.languages)
        let template = try self.template(kind, language: language, settings: settings)

        let displayName = request.displayName.map(Self.singleLine).flatMap { $0.isEmpty ? nil : $0 }
        let to = try MailAddress(address: request.recipient, displayName: displayName)
        let email = request.email ?? request.recipient
        if kind.hasLink {
            guard let link = request.link else {
                throw MailError(.missingValue, "a \(kind.rawValue) email needs a link")
            }
            guard Self.isWebLink(link) else {
                throw MailError(.invalidLink, "the link of an email must be an absolute http or https URL")
            }
        }
        if kind.placeholders.contains(.newEmail) && request.newEmail == nil {
            throw MailError(.missingValue, "a \(kind.rawValue) email needs the new email address")
        }
        let lifetime = request.linkLifetimeSeconds ?? project.settings.linkLifetimeSeconds(kind)
        let pack = LanguagePack.builtIn(language) ?? .english
        func value(_ placeholder: TemplatePlaceholder) -> String {
            switch placeholder {
            case .appName: Self.singleLine(project.appName)
            case .displayName: displayName ?? Self.singleLine(email)
            case .email: Self.singleLine(email)
            case .newEmail: Self.singleLine(request.newEmail ?? "")
            case .link: request.link ?? ""
            case .expiry: pack.durationText(seconds: lifetime)
            }
        }
        // Each value is worked out once: the subject takes the body's where it has them.
        let body = MailBody(template: template.body, value: value)
        let subject = Self.singleLine(template.subject.render { body.value(of: $0) ?? value($0) })
        return ComposedMail(
            kind: kind,
            projectID: project.id,
            language: language,
            from: try project.mailSender(),
            to: to,
            replyTo: try settings.replyTo.map { text throws(MailError) in try MailAddress(parsing: text) },
            subject: subject,
            body: body,
            deliverWithinSeconds: kind.hasLink ? lifetime : nil
        )
    }

    /// The template of `kind` in `language`: the override's parts over the built-in ones.
    func template(_ kind: MailKind, language: String, settings: MailSettings) throws(MailError) -> MailTemplateSet {
        let builtIn = BuiltInTemplates.template(kind, language: language)
        let override = settings.override(kind, language: language)
        if override == nil, let builtIn, builtIn.language == language {
            return builtIn
        }
        // An override is parsed, and its body template keyed, once per text, not per message.
        let key = OverriddenTemplate(kind: kind, language: language, override: override)
        if let known = Self.overridden.withLock({ $0[key] }) { return known }
        func part(_ text: String?, _ fallback: TemplateText?) throws(MailError) -> TemplateText {
            do {
                if let text { return try TemplateText(text, kind: kind) }
            } catch {
                throw MailError(.invalidTemplate, "the \(kind.rawValue) template in \(language): \(error.message)")
            }
            guard let fallback else {
                throw MailError(.invalidTemplate, "the \(kind.rawValue) template in \(language) is incomplete")
            }
            return fallback
        }
        let set = MailTemplateSet(
            kind: kind,
            language: language,
            subject: try part(override?.subject, builtIn?.subject),
            html: try part(override?.html, builtIn?.body.html),
            text: try part(override?.text, builtIn?.body.text)
        )
        Self.overridden.withLock { cache in
            if cache.count >= Self.maximumOverridden { cache.removeAll() }
            cache[key] = set
        }
        return set
    }

    /// What a template made from an override depends on.
    private struct OverriddenTemplate: Hashable {
        var kind: MailKind
        var language: String
        var override: MailTemplateOverride?
    }

    /// Templates made from overrides, by what they were made from (few: one per override text
    /// in use; a changed override is a new entry).
    private static let overridden = Mutex<[OverriddenTemplate: MailTemplateSet]>([:])
    private static let maximumOverridden = 256

    /// Control characters (line breaks included) become spaces; runs of spaces shrink to one.
    static func singleLine(_ text: String) -> String {
        if isAlreadySingleLine(text) { return text }
        // Rare: some control character or space run to fold.
        var output = ""
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            let isSpace = scalar == " " || scalar.properties.generalCategory == .control
            if isSpace && lastWasSpace { continue }
            output.unicodeScalars.append(isSpace ? " " : scalar)
            lastWasSpace = isSpace
        }
        return output.trimmingASCIIWhitespace()
    }

    /// Whether `singleLine` would leave `text` as it is: no control character (C0, DEL, C1),
    /// no doubled space, no space at either end. Checked on bytes, which is the common case.
    private static func isAlreadySingleLine(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable(isAlreadySingleLine(bytes:)) ?? isAlreadySingleLine(bytes: text.utf8)
    }

    private static func isAlreadySingleLine(bytes: some Collection<UInt8>) -> Bool {
        if ControlCharacters.occur(inBytes: bytes) { return false }
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == 0x20 && (previous == 0x20 || previous == 0) { return false }
            previous = byte
        }
        return previous != 0x20
    }

    static func isWebLink(_ link: String) -> Bool {
        var link = link
        return link.withUTF8 { bytes in
            func hasPrefix(_ prefix: StaticString) -> Bool {
                let count = prefix.utf8CodeUnitCount
                return bytes.count >= count
                    && (0..<count).allSatisfy { bytes[$0] | 0x20 == prefix.utf8Start[$0] | 0x20 }
            }
            // No space at all (so no run of spaces, nor one at an end) and no control character.
            return (hasPrefix("https://") || hasPrefix("http://")) && bytes.count > 8 && !bytes.contains(0x20)
                && !ControlCharacters.occur(inBytes: bytes)
        }
    }
}
extension ProjectSettings {
    /// How long the action link of `kind` works, from the project's code lifetimes.
    func linkLifetimeSeconds(_ kind: MailKind) -> Int64 {
        guard case .action(let operation) = kind else { return 0 }
        return codeLifetimeSeconds(for: operation)
    }
}

extension TemplateComposer {
    /// The texts `kind` is written with in exactly `language` — the project's override part
    /// by part over the built-in template — as a template author would write them; `nil`
    /// when the kind has no template in that language.
    public func templateTexts(_ kind: MailKind, language: String, settings: MailSettings) -> MailTemplateOverride? {
        let builtIn = BuiltInTemplates.source(kind, language: language)
        let override = settings.override(kind, language: language)
        guard let subject = override?.subject ?? builtIn?.subject, let html = override?.html ?? builtIn?.html,
            let text = override?.text ?? builtIn?.text
        else { return nil }
        return MailTemplateOverride(subject: subject, html: html, text: text)
    }
}
