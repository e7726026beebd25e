import HearthBase

/// A project's mail configuration (`settings.mail` in the project document): the sender,
/// its own SMTP server (else the server-wide `hearth serve --smtp`, else the log), and
/// template overrides.
///
/// ```json
/// "mail": {
///   "from": "Example <noreply@example.com>",
///   "smtp": { "url": "smtp://mail.example.com:587", "username": "hearth",
///             "passwordEnv": "EXAMPLE_SMTP_PASSWORD", "startTls": "required" },
///   "templates": { "PASSWORD_RESET": { "it": { "subject": "Nuova password per %APP_NAME%" } } }
/// }
/// ```
public struct MailSettings: Sendable, Equatable, Codable {
    /// The `From` mailbox; `"<app name>" <noreply@<project ID>.hearth.local>` if `nil` (set a
    /// real one before sending through a relay that checks sender domains).
    public var from: String?
    public var replyTo: String?
    public var smtp: SMTPSettings?
    /// Overrides by kind (`PASSWORD_RESET`, ...) and language tag. An override may set any
    /// of its parts for a built-in language (the rest stay built-in); for another language
    /// it must set all three.
    public var templates: [String: [String: MailTemplateOverride]]

    /// The languages every kind has built-in templates for.
    public static let builtInLanguages = LanguagePack.builtInTags
    private static let builtInLanguageSet = Set(builtInLanguages)

    public init(
        from: String? = nil,
        replyTo: String? = nil,
        smtp: SMTPSettings? = nil,
        templates: [String: [String: MailTemplateOverride]] = [:]
    ) {
        self.from = from
        self.replyTo = replyTo
        self.smtp = smtp
        self.templates = templates
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        from = try container.decodeIfPresent(String.self, forKey: .from)
        replyTo = try container.decodeIfPresent(String.self, forKey: .replyTo)
        smtp = try container.decodeIfPresent(SMTPSettings.self, forKey: .smtp)
        templates =
            try container.decodeIfPresent([String: [String: MailTemplateOverride]].self, forKey: .templates) ?? [:]
    }

    /// The override of `kind` in exactly `language` (compared without case), if any.
    public func override(_ kind: MailKind, language: String) -> MailTemplateOverride? {
        templates[kind.rawValue]?.first { $0.key.lowercased() == language.lowercased() }?.value
    }

    /// Sets (or, with `nil`, removes) the override of `kind` in `language`.
    public mutating func setOverride(_ override: MailTemplateOverride?, kind: MailKind, language: String) {
        var byLanguage = templates[kind.rawValue] ?? [:]
        for key in byLanguage.keys where key.lowercased() == language.lowercased() { byLanguage[key] = nil }
        byLanguage[language] = override
        templates[kind.rawValue] = byLanguage.isEmpty ? nil : byLanguage
    }

    /// Every language `kind` can be written in: the built-in ones and the overridden ones.
    public func languages(for kind: MailKind) -> [String] {
        guard let overrides = templates[kind.rawValue], !overrides.isEmpty else { return Self.builtInLanguages }
        let extra = overrides.keys.filter { !Self.builtInLanguageSet.contains($0.lowercased()) }
        return Self.builtInLanguages + extra.sorted()
    }

    /// Everything wrong with these settings, in words; empty when they are usable.
    public func problems() -> [String] {
        var problems: [String] = []
        for (name, value) in [("from", from), ("replyTo", replyTo)] {
            guard let value else { continue }
            do {
                _ = try MailAddress(parsing: value)
            } catch {
                problems.append("mail.\(name): \(error.message)")
            }
        }
        if let smtp { problems += smtp.problems().map { "mail.smtp: \($0)" } }
        for (kindName, byLanguage) in templates.sorted(by: { $0.key < $1.key }) {
            guard let kind = MailKind(rawValue: kindName) else {
                problems.append(
                    "mail.templates: unknown kind \"\(kindName)\" (known: "
                        + MailKind.allCases.map(\.rawValue).joined(separator: ", ") + ")"
                )
                continue
            }
            for (language, override) in byLanguage.sorted(by: { $0.key < $1.key }) {
                problems += override.problems(kind: kind, language: language).map {
                    "mail.templates.\(kindName).\(language): \($0)"
                }
            }
        }
        return problems
    }
}

/// Replacement texts for one template in one language; `nil` parts keep the built-in text.
/// `html` is the content of the message's body: Hearth wraps it in a document that sets the
/// language and the direction (right-to-left for Persian, Arabic, Hebrew, ...).
public struct MailTemplateOverride: Sendable, Hashable, Codable {
    public var subject: String?
    public var html: String?
    public var text: String?

    public init(subject: String? = nil, html: String? = nil, text: String? = nil) {
        self.subject = subject
        self.html = html
        self.text = text
    }

    public static let maximumSubjectLength = 250
    public static let maximumBodyBytes = 100_000

    /// Everything wrong with this override of `kind` in `language`.
    public func problems(kind: MailKind, language: String) -> [String] {
        var problems: [String] = []
        guard let tag = LanguageNegotiation.canonical(language) else {
            return ["\"\(language)\" is not a language tag (such as en, it, fa, pt-BR)"]
        }
        if subject == nil && html == nil && text == nil { problems.append("set at least one of subject, html, text") }
        let isBuiltIn = MailSettings.builtInLanguages.contains(tag.lowercased())
        if !isBuiltIn && (subject == nil || html == nil || text == nil) {
            problems.append(
                "there is no built-in \(tag) template to complete it, so subject, html and text must all be set"
            )
        }
        let parts: [(String, String?, Int)] = [
            ("subject", subject, Self.maximumSubjectLength), ("html", html, Self.maximumBodyBytes),
            ("text", text, Self.maximumBodyBytes),
        ]
        for (name, value, limit) in parts {
            guard let value else { continue }
            if value.trimmingASCIIWhitespace().isEmpty { problems.append("\(name) is empty") }
            if value.utf8.count > limit { problems.append("\(name) is longer than \(limit) bytes") }
            if name == "subject" && value.contains(where: { $0 == "\n" || $0 == "\r" }) {
                problems.append("subject must be one line")
            }
            // An action email is only as good as its link: each body must carry it.
            if name != "subject" && kind.hasLink && !value.contains("%LINK%") {
                problems.append("\(name) must contain %LINK% (the action link)")
            }
            do {
                _ = try TemplateText(value, kind: kind)
            } catch {
                problems.append("\(name): \(error.message)")
            }
        }
        return problems
    }
}

/// A project's own SMTP server.
public struct SMTPSettings: Sendable, Equatable, Codable {
    /// When a plain `smtp://` connection is upgraded with STARTTLS.
    public enum StartTLS: String, Sendable, Codable, CaseIterable {
        /// Never (a local relay or a test sink).
        case off
        /// When the server offers it (the default without credentials).
        case opportunistic
        /// Always, failing otherwise (the default with credentials, so they never travel in clear).
        case required
    }

    /// `smtp://host[:port]` (port 25 by default; 587 for submission) or
    /// `smtps://host[:port]` (TLS from the start, port 465); `user:password@` may be included.
    public var url: String
    public var username: String?
    /// Prefer `passwordEnv`: the project document is readable by anyone who can list projects.
    public var password: String?
    /// The environment variable of `hearth serve` that holds the password.
    public var passwordEnv: String?
    public var startTls: StartTLS?
    /// One delivery attempt may take this long (default 30 s).
    public var timeoutSeconds: Int?
    /// Check the server's certificate (default `true`; turn off only for a test server).
    public var verifyCertificate: Bool?

    public init(
        url: String,
        username: String? = nil,
        password: String? = nil,
        passwordEnv: String? = nil,
        startTls: StartTLS? = nil,
        timeoutSeconds: Int? = nil,
        verifyCertificate: Bool? = nil
    ) {
        self.url = url
        self.username = username
        self.password = password
        self.passwordEnv = passwordEnv
        self.startTls = startTls
        self.timeoutSeconds = timeoutSeconds
        self.verifyCertificate = verifyCertificate
    }

    public func problems() -> [String] {
        var problems: [String] = []
        let lowered = url.lowercased()
        let scheme = lowered.hasPrefix("smtp://") ? "smtp://" : lowered.hasPrefix("smtps://") ? "smtps://" : nil
        if let scheme {
            let authority = url.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" }
            let host = authority.split(separator: "@").last ?? ""
            if host.isEmpty || host.hasPrefix(":") { problems.append("url \"\(RedactedURL(url))\" names no host") }
        } else {
            problems.append("url must start with smtp:// or smtps://")
        }
        if let timeoutSeconds, !(1...600).contains(timeoutSeconds) {
            problems.append("timeoutSeconds must be from 1 to 600")
        }
        if password != nil && passwordEnv != nil { problems.append("set password or passwordEnv, not both") }
        return problems
    }
}
