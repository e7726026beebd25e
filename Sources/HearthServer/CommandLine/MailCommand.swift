import FoundationEssentials
import HearthBase
import HearthCore
import HearthMail
import HearthStore

/// `hearth mail`: the outbox and templates, on the same data as the server. Queued messages
/// are delivered by a running `hearth serve` on that data (its workers look every second).
enum MailCommand {
    static let usage = """
          mail list --project P [--state queued|sending|sent|failed] [--limit N]
                                         list messages, newest first, with state and attempts
          mail show --project P ID       one message as JSON, with its bodies until purged
          mail send-test --project P --to ADDRESS [--lang L] [--kind K] [--display-name N]
                                         queue a sample message (TEST, or a sample of an action
                                         email such as PASSWORD_RESET) for the server to deliver
          mail template show|set|reset --project P --kind K --lang L
                          [--subject TEXT] [--html-file F] [--text-file F]
                                         show a template, override parts of it, or drop the override
        """

    static func run(_ arguments: [String], environment: [String: String]) throws -> Int32 {
        guard let action = arguments.first else { throw UsageError("hearth mail: say what to do (see hearth --help)") }
        var rest = arguments.dropFirst()
        var name = "mail \(action)"
        if action == "template" {
            guard let step = rest.first else { throw UsageError("hearth mail template: show, set or reset?") }
            name += " \(step)"
            rest = rest.dropFirst()
        }
        let parsed = try ParsedArguments(
            rest,
            command: name,
            valued: StoredData.flags.union([
                "project", "state", "limit", "to", "lang", "kind", "display-name", "public-url", "subject",
                "html-file", "text-file",
            ]),
            switches: []
        )
        let stored = try StoredData(parsed)
        defer { stored.close() }
        let (store, clock, projects) = (stored.store, stored.clock, stored.projects)
        var project = try stored.project(parsed, command: name)

        switch name {
        case "mail list":
            let state = try parsed.value("state").map { text throws(UsageError) in
                guard let state = OutboxRecord.State(rawValue: text) else {
                    throw UsageError("hearth mail list: --state must be queued, sending, sent or failed")
                }
                return state
            }
            let limit = try parsed.integer("limit", default: 50, in: 1...10_000, command: name)
            let records = try store.read { try $0.outboxMessages(projectID: project.id, state: state, limit: limit) }
            for record in records {
                let fields = [
                    record.id, record.state.rawValue, "\(record.attempts) attempts", record.kind, record.language,
                    record.recipient, record.subject, record.lastError ?? "",
                ]
                print(fields.joined(separator: "\t"))
            }
        case "mail show":
            guard let id = parsed.positional.first else { throw UsageError("hearth mail show: name the message ID") }
            guard let record = try store.read({ try $0.outboxMessage(projectID: project.id, id: id) }) else {
                throw UsageError("hearth mail show: no message \(id) in \(project.id)")
            }
            // Opened with the master key: whoever holds that may read them. Values that do not
            // open (no key, or another one) are shown as sealed.
            let seal = try stored.existingMasterKey(environment: environment, command: name).map {
                MailSeal(masterKey: $0)
            }
            let opened = seal.flatMap { try? record.opened(with: $0) } ?? record
            print(String(decoding: opened.detailJSON.serialized(), as: UTF8.self))
        case "mail send-test":
            let to = try parsed.required("to", command: name)
            let kind = try mailKind(parsed.value("kind") ?? MailKind.test.rawValue, command: name)
            let mailer = Mailer(
                store: store,
                clock: clock,
                log: Log(minimumLevel: .error),
                projects: projects,
                seal: try stored.mailSeal(environment: environment, command: name),
                configuration: MailDeliveryConfiguration()
            )
            do {
                let record = try mailer.queueTestMessage(
                    project: project,
                    to: to,
                    kind: kind,
                    languages: LanguagePreferences(explicit: parsed.value("lang")),
                    displayName: parsed.value("display-name"),
                    publicURL: parsed.value("public-url") ?? "http://127.0.0.1:9099"
                )
                print(record.id)
                HearthCommand.writeError(
                    "queued \(record.kind) message \(record.messageID) in \(record.language) for \(to); "
                        + "a running hearth serve on this data delivers it"
                )
            } catch let error as MailError {
                throw UsageError("hearth mail send-test: \(error.message)")
            }
        case "mail template show", "mail template set", "mail template reset":
            let kind = try mailKind(try parsed.required("kind", command: name), command: name)
            guard let language = LanguageNegotiation.canonical(try parsed.required("lang", command: name)) else {
                throw UsageError("hearth \(name): --lang must be a language tag such as en, it, fa or pt-BR")
            }
            if name == "mail template set" {
                let override = MailTemplateOverride(
                    subject: parsed.value("subject"),
                    html: try parsed.value("html-file").map { path throws(UsageError) in try read(path, name) },
                    text: try parsed.value("text-file").map { path throws(UsageError) in try read(path, name) }
                )
                let problems = override.problems(kind: kind, language: language)
                if !problems.isEmpty { throw UsageError("hearth \(name): " + problems.joined(separator: "; ")) }
                project.settings.mail.setOverride(override, kind: kind, language: language)
                try projects.save(project)
            } else if name == "mail template reset" {
                guard project.settings.mail.override(kind, language: language) != nil else {
                    throw UsageError("hearth \(name): \(project.id) has no \(kind.rawValue) override in \(language)")
                }
                project.settings.mail.setOverride(nil, kind: kind, language: language)
                try projects.save(project)
            }
            guard
                let texts = TemplateComposer().templateTexts(kind, language: language, settings: project.settings.mail)
            else { throw UsageError("hearth \(name): \(project.id) has no \(kind.rawValue) template in \(language)") }
            print(
                "Subject: \(texts.subject ?? "")\n\n--- text ---\n\(texts.text ?? "")\n--- html ---\n\(texts.html ?? "")"
            )
        default:
            throw UsageError("hearth: unknown command \"\(name)\" (see hearth --help)")
        }
        return 0
    }

    private static func mailKind(_ name: String, command: String) throws(UsageError) -> MailKind {
        guard let kind = MailKind(rawValue: name) else {
            throw UsageError(
                "hearth \(command): --kind must be one of " + MailKind.allCases.map(\.rawValue).joined(separator: ", ")
            )
        }
        return kind
    }

    private static func read(_ path: String, _ command: String) throws(UsageError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("hearth \(command): cannot read \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
