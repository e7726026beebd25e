import HearthBase
import HearthCore
import HearthHTTP
import HearthMail
import HearthStore

extension HearthApplication {
    /// The outbox and templates for admins, under `/hearth/v1/projects/{p}/mail`, and the
    /// emulator's list of pending action codes for the development seed.
    ///
    /// * `GET .../mail/messages[?state=queued|sending|sent|failed&pageSize=N&pageToken=T]`
    /// * `GET .../mail/messages/{id}` — with bodies (until purged) and the action
    /// * `POST .../mail:sendTest` `{"to", "languageCode"?, "kind"?, "displayName"?}` (the
    ///   `X-Firebase-Locale` and `Accept-Language` headers count too)
    /// * `GET|PUT|DELETE .../mail/templates/{kind}/{language}` — `PUT {"subject"?, "html"?, "text"?}`
    /// * `GET /emulator/v1/projects/{p}/oobCodes` — `{"oobCodes": [...]}`, development seed only
    func addMailRoutes(to router: inout Router) {
        router.get("/hearth/v1/projects/{project}/mail/messages") { [self] request in
            let project = try projectOrNotFound(request)
            try requireAdmin(request, project: project)
            var state: OutboxRecord.State?
            if let name = request.query["state"] {
                guard let known = OutboxRecord.State(rawValue: name) else {
                    throw GoogleAPIError.invalidArgument("state must be queued, sending, sent or failed")
                }
                state = known
            }
            let pageSize = try Self.pageSize(request.query["pageSize"])
            let afterID = try request.query["pageToken"].map { token throws(GoogleAPIError) in
                guard let id = Self.lastMessageID(token) else {
                    throw GoogleAPIError.invalidArgument("pageToken is not one this server gave")
                }
                return id
            }
            let page = try store.read { transaction in
                try transaction.outboxMessages(
                    projectID: project.id,
                    state: state,
                    afterID: afterID,
                    limit: pageSize + 1
                )
            }
            var answer: JSONObject = ["messages": .array(page.prefix(pageSize).map(\.summaryJSON))]
            if page.count > pageSize, let last = page.prefix(pageSize).last {
                answer["nextPageToken"] = .string(last.id)
            }
            return .json(.object(answer))
        }

        router.get("/hearth/v1/projects/{project}/mail/messages/{id}") { [self] request in
            let project = try projectOrNotFound(request)
            try requireAdmin(request, project: project)
            let id = request.pathParameters["id"] ?? ""
            guard let record = try store.read({ try $0.outboxMessage(projectID: project.id, id: id) }) else {
                throw GoogleAPIError.notFound("No message \(id) in \(project.id).")
            }
            // Opened for an admin of the project, who could make such a link anyway
            // (`returnOobLink`); values that do not open are shown as sealed.
            return .json(((try? record.opened(with: mailer.seal)) ?? record).detailJSON)
        }

        router.post("/hearth/v1/projects/{project}/mail:sendTest") { [self] request in
            let project = try projectOrNotFound(request)
            try requireAdmin(request, project: project)
            let fields = try RequestFields(jsonBodyOf: request)
            guard let to = try fields.string("to") ?? fields.string("email") else {
                throw GoogleAPIError.invalidArgument("to must be the recipient's email address")
            }
            let kind = try Self.mailKind(fields.string("kind") ?? MailKind.test.rawValue)
            let languages = LanguagePreferences(
                explicit: try fields.string("languageCode") ?? request.headers["x-firebase-locale"],
                acceptLanguage: request.headers["accept-language"]
            )
            let displayName = try fields.string("displayName")
            let record: OutboxRecord
            do {
                record = try mailer.queueTestMessage(
                    project: project,
                    to: to,
                    kind: kind,
                    languages: languages,
                    displayName: displayName,
                    publicURL: publicURL
                )
            } catch let error as MailError {
                throw GoogleAPIError.invalidArgument(error.message)
            }
            return .json(record.summaryJSON)
        }

        router.get("/hearth/v1/projects/{project}/mail/templates/{kind}/{language}") { [self] request in
            let (project, kind, language) = try templateRequest(request)
            return try templateResponse(project: project, kind: kind, language: language)
        }

        router.put("/hearth/v1/projects/{project}/mail/templates/{kind}/{language}") { [self] request in
            var (project, kind, language) = try templateRequest(request)
            let fields = try RequestFields(jsonBodyOf: request)
            let override = MailTemplateOverride(
                subject: try fields.string("subject"),
                html: try fields.string("html"),
                text: try fields.string("text")
            )
            let problems = override.problems(kind: kind, language: language)
            if !problems.isEmpty { throw GoogleAPIError.invalidArgument(problems.joined(separator: "; ")) }
            project.settings.mail.setOverride(override, kind: kind, language: language)
            try saveProject(project)
            return try templateResponse(project: project, kind: kind, language: language)
        }

        router.delete("/hearth/v1/projects/{project}/mail/templates/{kind}/{language}") { [self] request in
            var (project, kind, language) = try templateRequest(request)
            guard project.settings.mail.override(kind, language: language) != nil else {
                throw GoogleAPIError.notFound("\(project.id) has no \(kind.rawValue) template in \(language).")
            }
            project.settings.mail.setOverride(nil, kind: kind, language: language)
            try saveProject(project)
            return .json(.object([:]))
        }

        router.get("/emulator/v1/projects/{project}/oobCodes") { [self] request in
            let project = try projectOrNotFound(request)
            guard project.id == developmentProjectID else {
                throw GoogleAPIError.notFound("oobCodes are listed for the development seed project only.")
            }
            // Pending codes only: those that would work now (not used, expired or void), as
            // the emulator lists them; emailed codes and admin-generated links (which no email
            // holds) in the order they were made.
            let generated = emailActions.developmentGeneratedLinks()
            let pending = try store.read { transaction in
                var listed: [(createdAt: Int64, json: JSONValue)] = []
                for sealed in try transaction.outboxActionMessages(projectID: project.id) {
                    // The seed's own codes, opened for its developer (as the emulator lists them).
                    guard let message = try? sealed.opened(with: mailer.seal), let action = message.action,
                        let code = action.oobCode,
                        emailActions.isUsable(code, project: project, in: transaction)
                    else { continue }
                    listed.append((message.createdAt, action.emulatorJSON))
                }
                for link in generated
                where emailActions.isUsable(link.action.oobCode, project: project, in: transaction) {
                    listed.append((link.createdAt, OutboxRecord.Action(link.action).emulatorJSON))
                }
                return listed.enumerated().sorted {
                    ($0.element.createdAt, $0.offset) < ($1.element.createdAt, $1.offset)
                }
                .map(\.element.json)
            }
            return .json(.object(["oobCodes": .array(pending)]))
        }
    }

    private func templateRequest(_ request: Request) throws(GoogleAPIError) -> (Project, MailKind, String) {
        let project = try projectOrNotFound(request)
        try requireAdmin(request, project: project)
        let kind = try Self.mailKind(request.pathParameters["kind"] ?? "")
        guard let language = LanguageNegotiation.canonical(request.pathParameters["language"] ?? "") else {
            throw GoogleAPIError.invalidArgument("the language must be a language tag such as en, it, fa or pt-BR")
        }
        return (project, kind, language)
    }

    private func templateResponse(project: Project, kind: MailKind, language: String) throws(GoogleAPIError)
        -> Response
    {
        let settings = project.settings.mail
        guard let texts = mailer.composer.templateTexts(kind, language: language, settings: settings) else {
            throw GoogleAPIError.notFound("\(project.id) has no \(kind.rawValue) template in \(language).")
        }
        let override = settings.override(kind, language: language)
        let overridden = [("subject", override?.subject), ("html", override?.html), ("text", override?.text)]
            .filter { $0.1 != nil }.map { JSONValue.string($0.0) }
        return .json(
            .object([
                "kind": .string(kind.rawValue), "language": .string(language),
                "subject": .string(texts.subject ?? ""), "html": .string(texts.html ?? ""),
                "text": .string(texts.text ?? ""), "overridden": .array(overridden),
                "placeholders": .array(kind.placeholders.map { .string($0.token) }),
            ])
        )
    }

    private func saveProject(_ project: Project) throws(GoogleAPIError) {
        do {
            try projects.save(project)
        } catch let error as ProjectValidationError {
            throw GoogleAPIError.invalidArgument(error.problems.joined(separator: "; "))
        } catch {
            log.error("cannot save project", ["project": .string(project.id), "error": .string("\(error)")])
            throw GoogleAPIError.internal()
        }
    }

    private static func mailKind(_ name: String) throws(GoogleAPIError) -> MailKind {
        guard let kind = MailKind(rawValue: name) else {
            throw GoogleAPIError.invalidArgument(
                "kind must be one of " + MailKind.allCases.map(\.rawValue).joined(separator: ", ")
            )
        }
        return kind
    }

    private static func pageSize(_ text: String?) throws(GoogleAPIError) -> Int {
        guard let text else { return 50 }
        guard let size = Int(text), (1...500).contains(size) else {
            throw GoogleAPIError.invalidArgument("pageSize must be a whole number from 1 to 500")
        }
        return size
    }

    /// A page token is the ID of the last message shown (IDs sort by age): 9 base-32 digits of
    /// its creation time, then base64url. Tokens of earlier versions, `<createdAt>.<id>`, still
    /// work (an ID has no dot).
    private static func lastMessageID(_ token: String) -> String? {
        let id = token.split(separator: ".", maxSplits: 1).last.map(String.init) ?? ""
        return WriteTransaction.isMessageID(id) ? id : nil
    }
}
