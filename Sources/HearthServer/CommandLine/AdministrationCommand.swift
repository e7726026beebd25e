import FoundationEssentials
import HearthBase
import HearthCore
import HearthCrypto
import HearthStore

/// The sub-commands that manage stored data directly: projects, admin credentials, keys.
enum AdministrationCommand {
    static func run(_ command: String, _ arguments: [String], environment: [String: String]) throws -> Int32 {
        guard let action = arguments.first else {
            throw UsageError("hearth \(command): say what to do (see hearth --help)")
        }
        let name = "\(command) \(action)"
        let parsed = try ParsedArguments(
            arguments.dropFirst(),
            command: name,
            valued: StoredData.flags.union(["project", "label", "purpose"]),
            switches: []
        )
        let stored = try StoredData(parsed)
        defer { stored.close() }
        let (store, clock, projects) = (stored.store, stored.clock, stored.projects)

        func project() throws -> Project { try stored.project(parsed, command: name) }

        switch (command, action) {
        case ("project", "list"):
            for project in projects.all {
                print("\(project.id)\t\(project.number)\t\(project.apps.count) apps\t\(project.displayName)")
            }
        case ("project", "show"):
            guard let id = parsed.positional.first, var project = projects.project(id) else {
                throw UsageError("hearth project show: name an existing project")
            }
            // Printed, so its SMTP credentials are not.
            if var smtp = project.settings.mail.smtp {
                smtp.url = RedactedURL(smtp.url).description
                if smtp.password != nil { smtp.password = "***" }
                project.settings.mail.smtp = smtp
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(project), as: UTF8.self))
        case ("admin-key", "create"):
            let project = try project()
            let credentials = AdminCredentials(store: store, clock: clock, developmentProjectID: nil)
            let (credential, record) = try credentials.create(projectID: project.id, label: parsed.value("label") ?? "")
            print(credential)
            HearthCommand.writeError(
                "admin credential \(record.credentialID) made for \(project.id); it is shown only this once"
            )
        case ("admin-key", "list"):
            let project = try project()
            let credentials = AdminCredentials(store: store, clock: clock, developmentProjectID: nil)
            for record in try credentials.list(projectID: project.id) {
                let state = record.revokedAt == nil ? "active" : "revoked"
                let used = record.lastUsedAt.map { "last used \(time(seconds: $0))" } ?? "never used"
                print(
                    "\(record.credentialID)\t\(state)\tcreated \(time(seconds: record.createdAt))\t\(used)\t\(record.label)"
                )
            }
        case ("admin-key", "revoke"):
            let project = try project()
            guard let id = parsed.positional.first else {
                throw UsageError("hearth admin-key revoke: name the credential ID")
            }
            let credentials = AdminCredentials(store: store, clock: clock, developmentProjectID: nil)
            guard try credentials.list(projectID: project.id).contains(where: { $0.credentialID == id }),
                try credentials.revoke(id: id)
            else { throw UsageError("hearth admin-key revoke: no active credential \(id) in \(project.id)") }
            print("revoked \(id)")
        case ("keys", "list"):
            let project = try project()
            let ring = KeyRing(
                store: store,
                clock: clock,
                masterKey: try stored.masterKey(environment: environment, command: name)
            )
            for key in try ring.publishedKeys(projectID: project.id).keys {
                print("\(key.keyID)\t\(key.jwk.alg ?? "")")
            }
        case ("keys", "rotate"):
            let project = try project()
            guard let purpose = parsed.value("purpose").flatMap(KeyRing.Purpose.init(rawValue:)) else {
                throw UsageError("hearth keys rotate: --purpose must be installations or idTokens")
            }
            let ring = KeyRing(
                store: store,
                clock: clock,
                masterKey: try stored.masterKey(environment: environment, command: name)
            )
            let lifetime =
                purpose == .installations
                ? project.settings.installationTokenLifetimeSeconds : project.settings.idTokenLifetimeSeconds
            print(try ring.rotate(projectID: project.id, purpose: purpose, tokenLifetimeSeconds: lifetime))
        default:
            throw UsageError("hearth: unknown command \"\(name)\" (see hearth --help)")
        }
        return 0
    }

    /// A stored instant in whole seconds, as every table of the command line writes times.
    private static func time(seconds: Int64) -> String { Timestamp.iso8601(milliseconds: seconds * 1_000) }
}
