import HearthBase
public import HearthWire

/// Builds the links that carry action codes (PRODUCT.md §3.2):
/// `<actionURL>?mode=…&oobCode=…&apiKey=…[&continueUrl=…][&lang=…]`, where the action URL is
/// the project's custom one or `<publicURL>/__/auth/action`; when the app handles the code the
/// emailed link wraps it as `https://<linkDomain>/__/auth/links?link=<encoded action link>`.
public struct ActionLinkBuilder: Sendable {
    public let project: Project
    /// Hearth's public base URL, without a trailing slash.
    public let publicURL: String

    public init(project: Project, publicURL: String) {
        self.project = project
        self.publicURL = publicURL
    }

    /// The link to email (or return to an admin).
    public func link(
        for operation: ActionCodeOperation,
        code: String,
        apiKey: String,
        settings: AcceptedActionCodeSettings,
        language: String?
    ) -> String {
        guard settings.handledInApp else {
            return actionLink(
                for: operation,
                code: code,
                apiKey: apiKey,
                continueURL: continueURL(settings),
                language: language
            )
        }
        // Inside the wrapper `apiKey` comes first, as Firebase writes it: Apple's SDK reads
        // the wrapped parameters at the top level, where the first one stays glued to `link`.
        let inner = actionLink(
            for: operation,
            code: code,
            apiKey: apiKey,
            continueURL: settings.continueURL,
            language: language,
            apiKeyFirst: true
        )
        let domain = settings.linkDomain ?? project.preferredLinkDomain ?? Self.host(of: publicURL)
        return
            "https://\(domain)/__/auth/links?link=\(PercentEncoding.encode(inner, keeping: PercentEncoding.wrappedLinkCharacters))"
    }

    /// Where the action page's "Continue" leads: the continue URL itself, or, when the send
    /// named a registered app that does not handle the code, a back-to-app link on the link
    /// domain that carries it, so an installed app opens (PRODUCT.md §3.3). Without a link
    /// domain no app can be associated, and the continue URL stays as it is.
    func continueURL(_ settings: AcceptedActionCodeSettings) -> String? {
        guard let continueURL = settings.continueURL, settings.returnsToApp,
            let domain = settings.linkDomain ?? project.preferredLinkDomain
        else { return settings.continueURL }
        return BackToAppLink.make(continueURL: continueURL, linkDomain: domain, hints: settings.appLinkHints)
    }

    /// The plain action link, which Hearth's own action page (or the custom one) handles.
    public func actionLink(
        for operation: ActionCodeOperation,
        code: String,
        apiKey: String,
        continueURL: String?,
        language: String?,
        apiKeyFirst: Bool = false
    ) -> String {
        // Built as bytes, each value escaped straight into them: one buffer, not a string
        // per piece. The page that handles the action: the project's own, else Hearth's.
        let base = project.actionURL?.utf8.count ?? publicURL.utf8.count + Self.actionPath.utf8.count
        let values = code.utf8.count + apiKey.utf8.count + (continueURL?.utf8.count ?? 0) + (language?.utf8.count ?? 0)
        var link: [UInt8] = []
        link.reserveCapacity(base + 48 + 3 * values)  // names and separators, values at worst escaped
        if let custom = project.actionURL {
            link += custom.utf8
        } else {
            link += publicURL.utf8
            link += Self.actionPath.utf8
        }
        var separator = link.contains(UInt8(ascii: "?")) ? UInt8(ascii: "&") : UInt8(ascii: "?")
        func parameter(_ name: StaticString, _ value: String) {
            link.append(separator)
            link.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            link.append(UInt8(ascii: "="))
            PercentEncoding.append(value, keeping: PercentEncoding.queryValueCharacters, to: &link)
            separator = UInt8(ascii: "&")
        }
        if apiKeyFirst { parameter("apiKey", apiKey) }
        // `.unknown` has no mode, and no code is ever made for it.
        if let mode = operation.mode { parameter("mode", mode) }
        parameter("oobCode", code)
        if !apiKeyFirst { parameter("apiKey", apiKey) }
        if let continueURL { parameter("continueUrl", continueURL) }
        if let language, !language.isEmpty { parameter("lang", language) }
        return String(decoding: link, as: UTF8.self)
    }

    /// Where Hearth's own action page is, under its public URL.
    private static let actionPath = "/__/auth/action"

    /// The host (and port) of an `http(s)://host[:port]/...` URL.
    static func host(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        return String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
    }
}

/// Percent-encoding for link building (RFC 3986): every byte outside the kept set becomes
/// `%XX`, so `=` and `&` inside a value can never be mistaken for separators.
enum PercentEncoding {
    /// Unreserved characters plus `:` `/` `?` `@`, which a query value may hold literally.
    static let queryValueCharacters = ByteSet(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?@".utf8
    )
    /// What the wrapped link leaves readable: unreserved plus `:` `/` `?` (Firebase's form).
    static let wrappedLinkCharacters = ByteSet(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?".utf8
    )

    static func encode(_ text: String, keeping kept: ByteSet) -> String {
        if text.utf8.allSatisfy(kept.contains) { return text }
        var output: [UInt8] = []
        output.reserveCapacity(3 * text.utf8.count)
        append(text, keeping: kept, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `text` to `output`, encoded: runs of kept bytes are copied whole.
    static func append(_ text: String, keeping kept: ByteSet, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var run = 0
            for index in bytes.indices where !kept.contains(bytes[index]) {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                output.append(UInt8(ascii: "%"))
                output.append(hexDigit(bytes[index] >> 4))
                output.append(hexDigit(bytes[index] & 0x0F))
                run = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}

extension ProjectSettings {
    /// How long a code of `operation` works (PRODUCT.md §3.2 defaults, per-project settings).
    public func codeLifetimeSeconds(for operation: ActionCodeOperation) -> Int64 {
        switch operation {
        case .passwordReset: passwordResetCodeLifetimeSeconds
        case .verifyEmail: verifyEmailCodeLifetimeSeconds
        case .emailLink: emailSignInCodeLifetimeSeconds
        case .verifyAndChangeEmail: verifyAndChangeEmailCodeLifetimeSeconds
        case .recoverEmail: recoverEmailCodeLifetimeSeconds
        // No code is ever made for `.unknown`.
        case .unknown: 0
        }
    }
}

extension Project {
    /// The language an email of `kind` is written in for a request with `preferences`:
    /// negotiated among the languages the kind has a template in (built in or overridden).
    public func emailLanguage(for kind: MailKind, preferences: LanguagePreferences) -> String {
        LanguageNegotiation.choose(
            preferences,
            projectDefault: settings.defaultLanguage,
            available: settings.mail.languages(for: kind)
        )
    }
}
