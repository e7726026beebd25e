import HearthCore
import HearthWire

/// What the action page (`/__/auth/action`) says, in one language. Placeholders: `{app}`
/// (the project's name), `{email}`, `{newEmail}`, `{count}`.
struct ActionPageText: Sendable {
    /// The words of one mode's page.
    struct Mode: Sendable {
        /// The form's page: what will happen, and the one button that does it.
        var heading: String
        var message: String
        var button: String
        /// After the code was used.
        var doneHeading: String
        var doneMessage: String
    }

    /// A refusal's page: what went wrong and what to do next.
    struct Refusal: Sendable {
        var heading: String
        var message: String
    }

    var modes: [ActionCodeOperation: Mode]
    var newPasswordLabel: String
    var confirmPasswordLabel: String
    /// Above the password policy's list.
    var policyHeading: String
    /// `PasswordPolicy.Requirement.minimumCharacters`, `{count}`.
    var minimumCharacters: String
    /// `PasswordPolicy.Requirement.maximumBytes`, `{count}`.
    var maximumBytes: String
    var passwordsDiffer: String
    var weakPassword: String
    var continueLabel: String
    /// Under a finished action without a continue URL.
    var closeHint: String
    /// The pages of `expired`, `used`, `invalid`, `mismatch`, `missing`, `csrf`,
    /// `unauthorized-continue-url` and `no-continue-url`.
    var refusals: [ActionPageOutcome: Refusal]

    static let copy = PageCopy<ActionPageText>(["en": .english, "it": .italian, "fa": .persian])

    /// Every outcome with a page of its own words (the others show the mode's form or result).
    static let refusalOutcomes: [ActionPageOutcome] = [
        .expired, .used, .invalid, .mismatch, .missing, .csrf, .unauthorizedContinueURL, .noContinueURL,
    ]
}
