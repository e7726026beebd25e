import FoundationEssentials
import HearthCore

/// The JSON file given to `hearth serve --config`: the production projects.
///
/// ```json
/// { "publicUrl": "https://auth.example.com",
///   "projects": [ { "projectId": "my-app", "projectNumber": "123", "apiKeys": ["..."],
///                   "apps": [...], "authorizedDomains": [...], "linkDomains": [...],
///                   "settings": { "installationTokenLifetimeSeconds": 604800 } } ] }
/// ```
struct ConfigurationFile: Decodable {
    var publicURL: String?
    var projects: [Project]

    enum CodingKeys: String, CodingKey {
        case publicURL = "publicUrl"
        case projects
    }

    static func load(path: String) throws(UsageError) -> ConfigurationFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("hearth serve: cannot read configuration file \(path)")
        }
        let file: ConfigurationFile
        do {
            file = try JSONDecoder().decode(ConfigurationFile.self, from: data)
        } catch {
            throw UsageError("hearth serve: configuration file \(path) is not valid: \(describe(error))")
        }
        for project in file.projects {
            do {
                _ = try project.validated()
            } catch {
                throw UsageError("hearth serve: configuration file \(path): \(error)")
            }
        }
        return file
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            "missing \"\(key.stringValue)\" at \(path(context.codingPath))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\(context.debugDescription) at \(path(context.codingPath))"
        case DecodingError.dataCorrupted(let context):
            context.debugDescription
        default:
            String(describing: error)
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty
            ? "the top level" : codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
