public import HearthWire

/// What the hosted action page (`/__/auth/action`) receives: the link's parameters, and for
/// a form submission the form's fields.
public struct ActionPageRequest: Sendable, Equatable {
    public var mode: String?
    public var code: String?
    public var apiKey: String?
    public var continueURL: String?
    /// The link's `lang`, as given.
    public var language: String?
    /// The form's fields, when the request is its submission (`POST`); `nil` for a look
    /// (`GET`, `HEAD`), which never uses the code.
    public var submission: Submission?

    /// The fields of the action form.
    public struct Submission: Sendable, Equatable {
        public var formToken: String?
        public var newPassword: String?
        public var confirmPassword: String?

        public init(formToken: String? = nil, newPassword: String? = nil, confirmPassword: String? = nil) {
            self.formToken = formToken
            self.newPassword = newPassword
            self.confirmPassword = confirmPassword
        }
    }

    public init(
        mode: String? = nil,
        code: String? = nil,
        apiKey: String? = nil,
        continueURL: String? = nil,
        language: String? = nil,
        submission: Submission? = nil
    ) {
        self.mode = mode
        self.code = code
        self.apiKey = apiKey
        self.continueURL = continueURL
        self.language = language
        self.submission = submission
    }

    /// The mode's operation, when the mode is one Hearth knows.
    public var operation: ActionCodeOperation? { mode.flatMap(ActionCodeOperation.init(mode:)) }
}

/// What the action page shows; the raw values are the page's `data-outcome`
/// (`Tests/tooling/hosted_pages_contract.md`).
public enum ActionPageOutcome: String, Sendable, CaseIterable {
    /// The code is good: the page offers its form.
    case ready
    /// The form was submitted and the code used.
    case done
    case expired
    case used
    /// No such code, a malformed one, or one that can no longer be used.
    case invalid
    /// The code is for another mode, or the API key is not its project's.
    case mismatch
    /// The link has no code, no mode or no API key.
    case missing
    case passwordsDiffer = "passwords-differ"
    case weakPassword = "weak-password"
    /// The form's token does not match its code.
    case csrf
    /// A sign-in link's continue URL is no longer on an authorized domain.
    case unauthorizedContinueURL = "unauthorized-continue-url"
    /// A sign-in link without a continue URL: only the app that asked for it can finish it.
    case noContinueURL = "no-continue-url"

    /// Whether the page refuses the request (answered with a 4xx status).
    public var isRefusal: Bool {
        switch self {
        case .ready, .done, .noContinueURL: false
        default: true
        }
    }

    /// Whether the page shows the form again (the reset's password fields with a reason).
    public var showsForm: Bool {
        self == .ready || self == .passwordsDiffer || self == .weakPassword
    }
}

/// Decides what the action page does with one request: which page it shows, or which use of
/// the code it performs. It is pure — the code's state, the form token's check and the
/// project's continue-URL rule come in — so every rule is tested without a store or HTTP.
///
/// The order of checks: an incomplete link, an unknown mode, a forged form (before anything
/// about the code is revealed or done), then the code's state, then what the mode needs.
public enum ActionPageDecision {
    /// What the page does.
    public enum Step: Sendable, Equatable {
        /// Shows the page of this outcome, using nothing.
        case show(ActionPageOutcome)
        /// Uses the password-reset code to set `newPassword`.
        case resetPassword(newPassword: String)
        /// Applies a verify-email, verify-and-change-email or recover-email code.
        case apply
        /// Hands an email-link sign-in to the app's page (`303 See Other`), leaving the code
        /// for the app to use.
        case continueSignIn(to: String)
    }

    /// `state` is the code's state (for a link whose API key names no project:
    /// `.otherProject`); `formTokenMatches` whether a submission's token is its code's;
    /// `continueURLs` the rule of the API key's project (`nil` when it names none);
    /// `language` the page's language, passed on to a sign-in's continue URL when the link
    /// has none.
    public static func decide(
        _ request: ActionPageRequest,
        state: ActionCodeState,
        formTokenMatches: Bool,
        continueURLs: ContinueURLPolicy?,
        language: String
    ) -> Step {
        guard let mode = request.mode, !mode.isEmpty, let code = request.code, !code.isEmpty,
            let apiKey = request.apiKey, !apiKey.isEmpty
        else { return .show(.missing) }
        guard let operation = request.operation else { return .show(.invalid) }
        if let submission = request.submission, submission.formToken == nil || !formTokenMatches {
            return .show(.csrf)
        }
        switch state {
        case .invalid: return .show(.invalid)
        case .otherProject: return .show(.mismatch)
        case .used: return .show(.used)
        case .expired: return .show(.expired)
        case .usable(let info) where info.operation != operation: return .show(.mismatch)
        case .usable: break
        }
        switch operation {
        case .emailLink:
            guard let continueURL = request.continueURL, !continueURL.isEmpty else { return .show(.noContinueURL) }
            guard continueURLs?.allows(continueURL) == true else { return .show(.unauthorizedContinueURL) }
            guard request.submission != nil else { return .show(.ready) }
            return .continueSignIn(
                to: SignInHandOver.url(
                    continueURL,
                    code: code,
                    apiKey: apiKey,
                    language: request.language.flatMap { $0.isEmpty ? nil : $0 } ?? language
                )
            )
        case .passwordReset:
            guard let submission = request.submission else { return .show(.ready) }
            let password = submission.newPassword ?? ""
            guard password == (submission.confirmPassword ?? "") else { return .show(.passwordsDiffer) }
            do {
                try PasswordPolicy.validate(password)
            } catch {
                return .show(.weakPassword)
            }
            return .resetPassword(newPassword: password)
        case .verifyEmail, .verifyAndChangeEmail, .recoverEmail:
            return request.submission == nil ? .show(.ready) : .apply
        case .unknown:
            return .show(.invalid)
        }
    }

    /// The outcome after the domain refused a use of the code, given the code's state read
    /// again: another request may have used it a moment before, or it just expired.
    public static func outcome(afterFailedUseWith state: ActionCodeState) -> ActionPageOutcome {
        switch state {
        case .used: .used
        case .expired: .expired
        case .otherProject: .mismatch
        case .invalid, .usable: .invalid
        }
    }

    /// The "Continue" link of a page: the link's continue URL when it is still authorized
    /// (checked again: the project's domains may have changed since the email was sent).
    public static func continueLink(_ request: ActionPageRequest, continueURLs: ContinueURLPolicy?) -> String? {
        guard let continueURL = request.continueURL, !continueURL.isEmpty, continueURLs?.allows(continueURL) == true
        else {
            return nil
        }
        return continueURL
    }
}

/// The URL an email-link sign-in continues to on the web, as Firebase's handler makes it: the
/// continue URL with `mode`, `oobCode`, `apiKey` and `lang` added to its query, so the app's
/// page can call `isSignInWithEmailLink(location.href)` and `signInWithEmailLink`.
public enum SignInHandOver {
    static let parameterNames: Set<Substring> = ["mode", "oobCode", "apiKey", "lang"]

    /// `continueURL` with the sign-in parameters set (replacing any of the same name), its
    /// other parameters and fragment kept.
    public static func url(_ continueURL: String, code: String, apiKey: String, language: String) -> String {
        var base = Substring(continueURL)
        var fragment: Substring = ""
        if let hash = base.firstIndex(of: "#") {
            fragment = base[hash...]
            base = base[..<hash]
        }
        var query: [Substring] = []
        if let mark = base.firstIndex(of: "?") {
            query = base[base.index(after: mark)...].split(separator: "&").filter { item in
                !parameterNames.contains(item.prefix { $0 != "=" })
            }
            base = base[..<mark]
        }
        let kept = PercentEncoding.queryValueCharacters
        var added = [
            "mode=signIn",
            "oobCode=" + PercentEncoding.encode(code, keeping: kept),
            "apiKey=" + PercentEncoding.encode(apiKey, keeping: kept),
        ]
        if !language.isEmpty { added.append("lang=" + PercentEncoding.encode(language, keeping: kept)) }
        return base + "?" + (query.map(String.init) + added).joined(separator: "&") + fragment
    }
}
