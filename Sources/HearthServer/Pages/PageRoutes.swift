import HearthBase
import HearthCore
import HearthHTTP
import HearthStore

extension HearthApplication {
    /// The hosted pages: `/__/auth/action`, and a page (never JSON) for every other path
    /// under `/__/auth/` that serves nothing.
    func addPageRoutes(to router: inout Router) {
        addActionPageRoutes(to: &router)
        router.answerMisses(under: "/__/auth") { request, miss in
            Self.errorPage(request, miss == .notFound ? .notFound : .methodNotAllowed)
        }
    }

    /// Why a page under `/__/auth/` shows an error.
    enum PageError: String {
        /// No page at this path (404).
        case notFound = "not-found"
        /// The path's page does not take this method (405).
        case methodNotAllowed = "method-not-allowed"
        /// The page failed for a reason of the server's (500), logged.
        case failure
        /// The store cannot write for now (503, with `Retry-After`).
        case unavailable
    }

    /// The page of `error`, in the browser's language.
    static func errorPage(_ request: Request, _ error: PageError, projectDefault: String? = nil) -> Response {
        let language = PageLanguage.choose(
            requested: request.query["lang"],
            acceptLanguage: request.headers["accept-language"],
            projectDefault: projectDefault
        )
        let text = ErrorPageText.copy[language]
        let (heading, message, status): (String, String, HTTPStatus) =
            switch error {
            case .notFound: (text.notFoundHeading, text.notFoundMessage, .notFound)
            case .methodNotAllowed: (text.methodHeading, text.methodMessage, .methodNotAllowed)
            case .failure: (text.failureHeading, text.failureMessage, .internalServerError)
            case .unavailable: (text.failureHeading, text.failureMessage, .serviceUnavailable)
            }
        var response = HostedPage(
            page: "error",
            outcome: error.rawValue,
            language: language,
            heading: heading,
            message: PageHTML.fill(message),
            isProblem: true,
            status: status
        ).response()
        if error == .unavailable { response.headers.set("Retry-After", String(StoreError.retryAfterSeconds)) }
        return response
    }
}
