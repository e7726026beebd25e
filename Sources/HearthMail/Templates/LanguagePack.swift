import HearthCore

/// The words of Hearth's built-in emails in one language. Each kind's copy is written once
/// and laid out twice, as HTML and as plain text, by `BuiltInTemplates`.
struct LanguagePack: Sendable {
    /// What one kind of email says, in order.
    struct Copy: Sendable {
        var subject: String
        var greeting: String
        /// Before the button.
        var paragraphs: [String]
        /// The button's label (kinds with a link).
        var button: String?
        /// After the button: expiry, what to do if it was not you.
        var notes: [String]
    }

    var tag: String
    var copies: [MailKind: Copy]
    /// "If the button does not work, ..." above the link written out in full.
    var linkFallback: String
    /// Lines under the message ("Thanks," / "The %APP_NAME% team").
    var signature: [String]
    /// `%EXPIRY%`: a duration in words.
    var duration: @Sendable (_ value: Int64, _ unit: DurationUnit) -> String

    enum DurationUnit: Sendable {
        case minutes, hours, days
    }

    /// A duration in the largest unit that divides it (rounded up to minutes).
    func durationText(seconds: Int64) -> String {
        if seconds >= 86_400 && seconds % 86_400 == 0 { return duration(seconds / 86_400, .days) }
        if seconds >= 3_600 && seconds % 3_600 == 0 { return duration(seconds / 3_600, .hours) }
        return duration(max(1, (seconds + 59) / 60), .minutes)
    }

    /// Every built-in language.
    static let all: [LanguagePack] = [.english, .italian, .persian]

    static func builtIn(_ tag: String) -> LanguagePack? {
        all.first { $0.tag == tag.lowercased() }
    }
}
