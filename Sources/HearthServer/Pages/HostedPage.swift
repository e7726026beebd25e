import HearthCore
import HearthHTTP

/// One hosted page (`/__/auth/...`): the HTML document every page shares — its language and
/// direction, the project's name and logo, one `<main>` with the page's `data-` hooks
/// (`Tests/tooling/hosted_pages_contract.md`), one `<h1>`, the `#message` — and its headers.
/// Server-rendered and complete without JavaScript; it carries no script.
struct HostedPage {
    /// `data-page`: `action`, `links`, or `error` for a path no page serves.
    var page: String
    /// `data-outcome`.
    var outcome: String
    /// Further attributes of `<main>` (name, value), e.g. `("data-mode", "resetPassword")`.
    var attributes: [(String, String)] = []
    var language: DocumentLanguage
    /// The project's branding; `nil` when the page belongs to no known project.
    var branding: PageBranding?
    /// The heading, plain text (also the document's title).
    var heading: String
    /// The `#message` paragraph's content, HTML (see ``PageHTML``).
    var message: String
    /// Whether the message reports a problem (shown as a notice, announced to screen readers).
    var isProblem = false
    /// What follows the message: forms, links, HTML.
    var content = ""
    var status: HTTPStatus = .ok
    /// Origins the page's form may be sent to besides its own (see ``PageHeaders``).
    var formTargets: [String] = []

    /// The page as an answer.
    func response() -> Response {
        var response = Response.html(html, status: status)
        headers.apply(to: &response)
        return response
    }

    var headers: PageHeaders {
        let branding = branding ?? Self.unbranded
        return PageHeaders(
            styleSources: [PageStyle.stylesheetSource, PageStyle.accentSource(branding)],
            imageOrigin: branding.logoOrigin,
            formTargets: formTargets
        )
    }

    private static let unbranded = PageBranding(name: "")

    var html: String {
        let branding = branding ?? Self.unbranded
        var html = language.htmlOpening
        html += "\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html += "<meta name=\"referrer\" content=\"no-referrer\">\n"
        html += "<meta name=\"robots\" content=\"noindex, nofollow\">\n"
        let title = branding.name.isEmpty ? heading : "\(heading) · \(branding.name)"
        html += "<title>\(HTMLText.escape(title))</title>\n"
        html += "<style>\(PageStyle.stylesheet)</style>\n"
        html += "<style>\(PageStyle.accentRule(branding))</style>\n"
        html += "</head>\n<body>\n"
        html += "<main data-page=\"\(HTMLText.escape(page))\" data-outcome=\"\(HTMLText.escape(outcome))\""
        for (name, value) in attributes { html += " \(name)=\"\(HTMLText.escape(value))\"" }
        html += ">\n"
        if !branding.name.isEmpty || branding.logoURL != nil {
            html += "<div class=\"brand\">"
            if let logo = branding.logoURL {
                // The name is written next to it, so the logo is decoration (empty alt).
                html += "<img src=\"\(HTMLText.escape(logo))\" alt=\"\" height=\"40\">"
            }
            html += "<span>\(HTMLText.escape(branding.name))</span></div>\n"
        }
        html += "<h1>\(HTMLText.escape(heading))</h1>\n"
        html +=
            isProblem
            ? "<p id=\"message\" class=\"notice\" role=\"alert\">\(message)</p>\n"
            : "<p id=\"message\">\(message)</p>\n"
        html += content
        html += "</main>\n</body>\n</html>\n"
        return html
    }
}
