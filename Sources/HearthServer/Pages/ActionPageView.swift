import HearthCore
import HearthHTTP
import HearthWire

/// The action page of one outcome, as HTML: the mode's form (with the code's hidden fields
/// and its form token), its result with "Continue", or a refusal that says what to do next.
struct ActionPageView {
    var outcome: ActionPageOutcome
    var request: ActionPageRequest
    var language: DocumentLanguage
    var project: Project?
    /// What the code is (pages that name its addresses: the form and the result).
    var info: ActionCodeInfo?
    /// The form token of the request's code (pages that show the form).
    var formToken: String?
    /// The result's "Continue" target, already checked again.
    var continueLink: String?

    var page: HostedPage {
        let text = ActionPageText.copy[language]
        let branding = project.map(PageBranding.init(project:))
        let operation = request.operation
        var page = HostedPage(
            page: "action",
            outcome: outcome.rawValue,
            language: language,
            branding: branding,
            heading: "",
            message: "",
            status: Self.status(of: outcome)
        )
        if let mode = operation?.mode { page.attributes.append(("data-mode", mode)) }
        let fragments = fragments(branding: branding)

        if outcome.isRefusal && !outcome.showsForm || outcome == .noContinueURL {
            let refusal = text.refusals[outcome] ?? text.refusals[.invalid]!
            page.heading = refusal.heading
            page.message = PageHTML.fill(refusal.message)
            page.isProblem = outcome.isRefusal
            return page
        }
        guard let operation, let mode = text.modes[operation] else {
            preconditionFailure("a form or result page needs a known mode")
        }
        if outcome == .done {
            page.heading = PageHTML.plain(mode.doneHeading, fragments.plain)
            page.message = PageHTML.fill(mode.doneMessage, fragments.html)
            if let continueLink {
                page.content =
                    PageHTML.link(id: "continue", href: continueLink, label: text.continueLabel, class: "button") + "\n"
            } else {
                page.content = "<p class=\"hint\">\(HTMLText.escape(text.closeHint))</p>\n"
            }
            return page
        }
        page.heading = PageHTML.plain(mode.heading, fragments.plain)
        switch outcome {
        case .passwordsDiffer:
            page.message = PageHTML.fill(text.passwordsDiffer)
            page.isProblem = true
        case .weakPassword:
            page.message = PageHTML.fill(text.weakPassword)
            page.isProblem = true
        default:
            page.message = PageHTML.fill(mode.message, fragments.html)
        }
        page.content = form(operation: operation, mode: mode, text: text, fragments: fragments.html)
        if operation == .emailLink, let continueURL = request.continueURL, let origin = Self.origin(of: continueURL) {
            page.formTargets = [origin]
        }
        return page
    }

    /// The form: hidden fields carrying the link, the reset's password fields, one button.
    private func form(
        operation: ActionCodeOperation,
        mode: ActionPageText.Mode,
        text: ActionPageText,
        fragments: [String: String]
    ) -> String {
        var html = "<form id=\"action-form\" method=\"post\" action=\"/__/auth/action\">\n"
        func hidden(_ name: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            html += "<input type=\"hidden\" name=\"\(name)\" value=\"\(HTMLText.escape(value))\">\n"
        }
        hidden("mode", operation.mode)
        hidden("oobCode", request.code)
        hidden("apiKey", request.apiKey)
        hidden("continueUrl", request.continueURL)
        hidden("lang", request.language)
        hidden("csrf", formToken)
        if operation == .passwordReset {
            if outcome == .passwordsDiffer || outcome == .weakPassword {
                // The form again: the message says what was wrong, so what the form is for
                // (and the account's address) moves here.
                html += "<p>\(PageHTML.fill(mode.message, fragments))</p>\n"
            }
            html += passwordFields(text: text)
        }
        html += "<button id=\"confirm\" type=\"submit\" class=\"button\">"
        html += PageHTML.fill(mode.button, fragments) + "</button>\n</form>\n"
        return html
    }

    private func passwordFields(text: ActionPageText) -> String {
        var html = "<div class=\"policy\"><p id=\"policy-heading\">\(HTMLText.escape(text.policyHeading))</p>"
        html += "<ul id=\"password-policy\">"
        for requirement in PasswordPolicy.requirements {
            let (template, count) =
                switch requirement {
                case .minimumCharacters(let count): (text.minimumCharacters, count)
                case .maximumBytes(let count): (text.maximumBytes, count)
                }
            html += "<li>" + PageHTML.fill(template, ["count": PageLanguage.number(count, in: language)]) + "</li>"
        }
        html += "</ul></div>\n"
        // A password manager files the new password under the account's address.
        if let email = info?.email {
            html +=
                "<input type=\"email\" name=\"username\" autocomplete=\"username\" "
                + "value=\"\(HTMLText.escape(email))\" readonly hidden>\n"
        }
        let refocus = outcome == .passwordsDiffer || outcome == .weakPassword
        for (id, name, label) in [
            ("new-password", "newPassword", text.newPasswordLabel),
            ("confirm-password", "confirmPassword", text.confirmPasswordLabel),
        ] {
            html += "<div class=\"field\"><label for=\"\(id)\">\(HTMLText.escape(label))</label>"
            html += "<input id=\"\(id)\" name=\"\(name)\" type=\"password\" autocomplete=\"new-password\" required "
            html +=
                "minlength=\"\(PasswordPolicy.minimumCharacters)\" aria-describedby=\"policy-heading password-policy\""
            if refocus && id == "new-password" { html += " autofocus" }
            html += "></div>\n"
        }
        return html
    }

    /// The values the words refer to, as HTML (`#email` and `#new-email` in their own
    /// direction-isolated elements) and as plain text (headings).
    private func fragments(branding: PageBranding?) -> (html: [String: String], plain: [String: String]) {
        var html: [String: String] = [:]
        var plain: [String: String] = [:]
        if let name = branding?.name {
            html["app"] = "<bdi>\(HTMLText.escape(name))</bdi>"
            plain["app"] = name
        }
        if let info {
            html["email"] = PageHTML.isolated(info.email, id: "email")
            plain["email"] = info.email
            if let newEmail = info.newEmail {
                html["newEmail"] = PageHTML.isolated(newEmail, id: "new-email")
                plain["newEmail"] = newEmail
            }
        }
        return (html, plain)
    }

    static func status(of outcome: ActionPageOutcome) -> HTTPStatus {
        switch outcome {
        case .ready, .done, .noContinueURL: .ok
        case .csrf, .unauthorizedContinueURL: .forbidden
        case .expired, .used, .invalid, .mismatch, .missing, .passwordsDiffer, .weakPassword: .badRequest
        }
    }

    /// `scheme://host[:port]` of an authorized continue URL, as a CSP source.
    static func origin(of url: String) -> String? {
        guard let parsed = try? ContinueURL(url) else { return nil }
        return "\(parsed.scheme)://\(parsed.host)" + (parsed.port.map { ":\($0)" } ?? "")
    }
}
