import HearthBase
import HearthCore
import HearthHTTP
import HearthStore
import HearthWire

extension HearthApplication {
    /// `GET`/`HEAD /__/auth/action` (the emailed link: shows the action, never uses the
    /// code) and `POST /__/auth/action` (the page's form: uses it).
    func addActionPageRoutes(to router: inout Router) {
        router.get("/__/auth/action") { [self] request in actionPage(request) }
        router.post("/__/auth/action") { [self] request in actionPage(request) }
    }

    /// Reads the link (or the form), lets ``ActionPageDecision`` decide, performs the use of
    /// the code it asks for, and renders the page.
    func actionPage(_ request: Request) -> Response {
        let isSubmission = request.method == .post
        let fields = isSubmission ? request.formItems : request.query
        let pageRequest = ActionPageRequest(
            mode: fields["mode"],
            code: fields["oobCode"],
            apiKey: fields["apiKey"],
            continueURL: fields["continueUrl"],
            language: fields["lang"],
            submission: isSubmission
                ? ActionPageRequest.Submission(
                    formToken: fields["csrf"],
                    newPassword: fields["newPassword"],
                    confirmPassword: fields["confirmPassword"]
                ) : nil
        )
        let project = pageRequest.apiKey.flatMap { projects.project(apiKey: $0) }
        let language = PageLanguage.choose(
            requested: pageRequest.language,
            acceptLanguage: request.headers["accept-language"],
            projectDefault: project?.settings.defaultLanguage
        )
        let code = pageRequest.code ?? ""
        do {
            let state = try project.map { try emailActions.state(of: code, project: $0) } ?? .otherProject
            let continueURLs = project.map(ContinueURLPolicy.init(project:))
            let step = ActionPageDecision.decide(
                pageRequest,
                state: state,
                formTokenMatches: isSubmission && formTokens.matches(pageRequest.submission?.formToken, code: code),
                continueURLs: continueURLs,
                language: language.tag
            )
            var view = ActionPageView(
                outcome: .ready,
                request: pageRequest,
                language: language,
                project: project,
                formToken: code.isEmpty ? nil : formTokens.token(for: code)
            )
            if case .usable(let info) = state { view.info = info }
            switch step {
            case .show(let outcome):
                view.outcome = outcome
            case .continueSignIn(let location):
                return PageHeaders.redirect(to: location, status: .seeOther)
            case .resetPassword(let newPassword):
                guard let project else { preconditionFailure("a usable code has a project") }
                view.outcome = try used(code, project: project) {
                    view.info = try emailActions.resetPassword(project: project, code: code, newPassword: newPassword)
                }
            case .apply:
                guard let project else { preconditionFailure("a usable code has a project") }
                view.outcome = try used(code, project: project) {
                    view.info = try emailActions.apply(project: project, code: code, apiKey: pageRequest.apiKey ?? "")
                        .info
                }
            }
            if view.outcome == .done {
                view.continueLink = ActionPageDecision.continueLink(pageRequest, continueURLs: continueURLs)
            }
            return view.page.response()
        } catch let error as StoreError where error.isUnavailable {
            // The store logs the cause once per episode.
            return Self.errorPage(request, .unavailable, projectDefault: project?.settings.defaultLanguage)
        } catch {
            log.error("action page failed", ["error": .string(String(reflecting: error))])
            return Self.errorPage(request, .failure, projectDefault: project?.settings.defaultLanguage)
        }
    }

    /// Runs `use` (a use of `code`): `done`, or when the domain refuses it, the outcome of the
    /// code's state read again (a concurrent request may have used it a moment before, or it
    /// just expired). Store failures are thrown.
    private func used(_ code: String, project: Project, _ use: () throws -> Void) throws -> ActionPageOutcome {
        do {
            try use()
            return .done
        } catch let refusal as AuthError {
            if refusal.code == .weakPassword || refusal.code == .passwordDoesNotMeetRequirements {
                return .weakPassword
            }
            return ActionPageDecision.outcome(afterFailedUseWith: try emailActions.state(of: code, project: project))
        }
    }
}
