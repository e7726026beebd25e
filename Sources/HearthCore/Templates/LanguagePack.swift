/// The words of Hearth's built-in emails in one language. Each kind's copy is written once
/// and laid out twice, as HTML and as plain text, by HearthMail's `BuiltInTemplates`.
///
/// The built-in languages are exactly the packs in `all`: a language is shipped by adding
/// its pack there, and everything that lists the built-in languages reads it from there.
public struct LanguagePack: Sendable {
    /// What one kind of email says, in order.
    public struct Copy: Sendable {
        public var subject: String
        public var greeting: String
        /// Before the button.
        public var paragraphs: [String]
        /// The button's label (kinds with a link).
        public var button: String?
        /// After the button: expiry, what to do if it was not you.
        public var notes: [String]

        public init(subject: String, greeting: String, paragraphs: [String], button: String?, notes: [String]) {
            self.subject = subject
            self.greeting = greeting
            self.paragraphs = paragraphs
            self.button = button
            self.notes = notes
        }
    }

    /// The language's BCP 47 tag (lower case).
    public var tag: String
    /// What each kind of email says.
    public var copies: [MailKind: Copy]
    /// "If the button does not work, ..." above the link written out in full.
    public var linkFallback: String
    /// Lines under the message ("Thanks," / "The %APP_NAME% team").
    public var signature: [String]
    /// `%EXPIRY%`: a duration in words.
    public var duration: @Sendable (_ value: Int64, _ unit: DurationUnit) -> String

    public init(
        tag: String,
        copies: [MailKind: Copy],
        linkFallback: String,
        signature: [String],
        duration: @escaping @Sendable (_ value: Int64, _ unit: DurationUnit) -> String
    ) {
        self.tag = tag
        self.copies = copies
        self.linkFallback = linkFallback
        self.signature = signature
        self.duration = duration
    }

    public enum DurationUnit: Sendable {
        case minutes, hours, days
    }

    /// The language as a document declares it (`lang` and `dir`).
    public var language: DocumentLanguage { DocumentLanguage(tag) }

    /// A duration in the largest unit that divides it (rounded up to minutes).
    public func durationText(seconds: Int64) -> String {
        if seconds >= 86_400 && seconds % 86_400 == 0 { return duration(seconds / 86_400, .days) }
        if seconds >= 3_600 && seconds % 3_600 == 0 { return duration(seconds / 3_600, .hours) }
        return duration(max(1, (seconds + 59) / 60), .minutes)
    }

    /// Every built-in language.
    public static let all: [LanguagePack] = [.english, .italian, .persian]

    /// The tags of the built-in languages, in `all`'s order.
    public static let builtInTags: [String] = all.map(\.tag)

    /// The built-in pack of exactly `tag` (any case), or `nil`. To serve a request, negotiate
    /// among `builtInTags` first (`LanguageNegotiation.choose`), then look the result up here.
    public static func builtIn(_ tag: String) -> LanguagePack? {
        all.first { $0.tag == tag.lowercased() }
    }
}
