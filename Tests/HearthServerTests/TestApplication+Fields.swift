import HearthBase
import HearthCore
import HearthHTTP

@testable import HearthServer

extension TestApplication {
    /// Lifts the seed project's email limits, for tests that send many emails in one hour.
    func allowManyEmails() throws {
        var project = DevelopmentSeed.project
        project.settings.emailsPerRecipientPerHour = 1_000_000
        project.settings.emailsPerClientAddressPerHour = 1_000_000
        _ = try application.projects.save(project)
    }

    /// Registers a web installation and answers its FID and refresh token.
    func registerInstallation() throws -> (fid: String, refreshToken: String) {
        let answer = send(
            .post,
            "/v1/projects/demo-project/installations",
            json: ["appId": .string(DevelopmentSeed.webAppID), "authVersion": "FIS_v2", "sdkVersion": "w:0.6.4"],
            headers: [("x-goog-api-key", Self.apiKey)]
        )
        guard let fid = answer.json["fid"]?.stringValue, let token = answer.json["refreshToken"]?.stringValue else {
            throw TestFailure("installation create answered \(answer.status): \(answer.text)")
        }
        return (fid, token)
    }
}
