import HearthHTTP

/// The header fields of every hosted page, error pages and redirects included.
///
/// * `Content-Security-Policy`: nothing loads but the page's own hashed style elements, the
///   project's logo (its origin only) and the form's target; no script at all; no framing
///   (`frame-ancestors 'none'`: no clickjacking of the confirm button).
/// * `Referrer-Policy: no-referrer`: the code is in the page's URL; the continue URL's site
///   must not receive it in a `Referer`.
/// * `Cache-Control: no-store`: a page shows a code's state and holds its form token.
/// * `X-Content-Type-Options: nosniff`.
struct PageHeaders {
    /// CSP sources of the style elements (`'sha256-…'`).
    var styleSources: [String]
    /// The origin images may come from (the logo's), if any.
    var imageOrigin: String?
    /// Origins a form may be sent to besides the page's own (a sign-in form's redirect
    /// target: browsers apply `form-action` to the redirect after the submission too).
    var formTargets: [String] = []

    var contentSecurityPolicy: String {
        var policy = "default-src 'none'; style-src \(styleSources.joined(separator: " "))"
        if let imageOrigin { policy += "; img-src \(imageOrigin)" }
        policy += "; form-action 'self'"
        for target in formTargets { policy += " \(target)" }
        policy += "; base-uri 'none'; frame-ancestors 'none'"
        return policy
    }

    /// Sets the fields on `response`.
    func apply(to response: inout Response) {
        response.headers.set("Content-Security-Policy", contentSecurityPolicy)
        Self.applyCommon(to: &response)
    }

    /// The fields that do not depend on the page (for a redirect, which has no content).
    static func applyCommon(to response: inout Response) {
        response.headers.set("Referrer-Policy", "no-referrer")
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("X-Content-Type-Options", "nosniff")
    }

    /// A `303 See Other` (after a form) or `302 Found` to `location`, with the pages' fields
    /// (its CSP allows nothing: it has no content).
    static func redirect(to location: String, status: HTTPStatus) -> Response {
        var response = Response.redirect(to: location, status: status)
        response.headers.set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
        applyCommon(to: &response)
        return response
    }
}
