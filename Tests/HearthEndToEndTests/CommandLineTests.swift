import Foundation
import HearthTestSupport
import Testing

/// `hearth` as a command: help, version, and one readable line (exit status ≠ 0) for every
/// mistake a user makes on the command line.
@Suite struct CommandLineTests {
    @Test func helpAndVersionAnswerOnStandardOutput() throws {
        let help = try HearthCommand.run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("usage: hearth"))
        let serveHelp = try HearthCommand.run(["serve", "--help"])
        #expect(serveHelp.status == 0)
        #expect(serveHelp.output.contains("--config FILE"))
        let version = try HearthCommand.run(["version"])
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("hearth "))
    }

    @Test func anUnknownFlagOrCommandIsOneLineAndStatus2() throws {
        let flag = try HearthCommand.run(["serve", "--prot", "80"])
        #expect(flag.status == 2)
        #expect(flag.errors == "hearth serve: unknown flag --prot (see hearth serve --help)\n")
        let port = try HearthCommand.run(["serve", "--port", "http"])
        #expect(port.status == 2)
        #expect(port.errors.contains("--port must be a whole number"))
        let command = try HearthCommand.run(["sevre"])
        #expect(command.status == 2)
        #expect(command.errors.split(separator: "\n").count == 1)
    }

    @Test func anUnwritableDataDirectoryIsRefusedWithAReadableLine() throws {
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hearth-blocker-\(UUID().uuidString)"
        )
        try Data("a file, not a directory".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let outcome = try HearthCommand.run([
            "serve", "--port", "0", "--data", blocker.appendingPathComponent("data").path,
        ])
        #expect(outcome.status == 2)
        #expect(outcome.errors.contains("cannot create data directory"))
        #expect(outcome.errors.split(separator: "\n").count == 1)
    }

    @Test func aPortInUseIsRefusedWithAReadableLine() throws {
        let server = try HearthServerProcess()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-second-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let outcome = try HearthCommand.run(["serve", "--port", String(server.port), "--data", data.path])
        #expect(outcome.status == 2)
        #expect(outcome.errors.contains("\(server.port)"))
        #expect(outcome.errors.lowercased().contains("in use"))
    }

    @Test func aBrokenConfigurationFileIsRefusedWithWhatIsWrong() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hearth-config-\(UUID().uuidString).json"
        )
        try Data(#"{"projects":[{"projectId":"Bad","projectNumber":"1","apiKeys":[]}]}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try HearthCommand.run(["serve", "--port", "0", "--config", file.path])
        #expect(outcome.status == 2)
        #expect(outcome.errors.contains("projectId must be"))
        #expect(outcome.errors.contains("at least one API key"))
    }

    @Test func aConfiguredProjectIsServedWithoutTheSeed() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hearth-config-\(UUID().uuidString).json"
        )
        let config = """
            {"publicUrl": "https://auth.example.org",
             "projects": [{"projectId": "prod-app", "projectNumber": "424242", "apiKeys": ["prod-key"],
                           "authorizedDomains": ["app.example.org"]}]}
            """
        try Data(config.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = try HearthServerProcess(arguments: ["--config", file.path])
        let client = server.client()
        #expect(try client.request("GET", "/v1/projects/prod-app/jwks").status == 200)
        #expect(try client.request("GET", "/v1/projects/424242/jwks").status == 200)
        #expect(try client.request("GET", "/v1/projects/demo-project/jwks").status == 404)
        // Without the seed, `owner` is no credential at all.
        let rotate = try client.json(
            "POST",
            "/hearth/v1/projects/prod-app/signingKeys:rotate",
            ["purpose": "installations"],
            headers: [("Authorization", "Bearer owner")]
        )
        #expect(rotate.status == 401)
        #expect(server.output.first?.contains("configured projects: prod-app") == true)
    }

    @Test func theFirstLogLineAnnouncesTheDevelopmentSeed() throws {
        let server = try HearthServerProcess()
        let first = try #require(server.output.first)
        #expect(first.contains("development seed"))
        #expect(first.contains("demo-project"))
        #expect(first.contains("127.0.0.1"))
    }

    @Test func adminCredentialsMadeByTheCommandLineAuthoriseAdminCalls() throws {
        let server = try HearthServerProcess()
        let data = server.storeArguments
        let created = try HearthCommand.run(
            [
                "admin-key", "create", "--project", "demo-project", "--label", "ci",
            ] + data
        )
        #expect(created.status == 0)
        let credential = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(credential.hasPrefix("hak_"))
        let client = server.client()
        func rotate(_ credential: String) throws -> Int {
            try client.json(
                "POST",
                "/hearth/v1/projects/demo-project/signingKeys:rotate",
                ["purpose": "installations"],
                headers: [("Authorization", "Bearer \(credential)")]
            ).status
        }
        #expect(try rotate(credential) == 200)
        #expect(try rotate(credential + "x") == 401)
        let id = credential.split(separator: "_")[1]
        let listed = try HearthCommand.run(["admin-key", "list", "--project", "demo-project"] + data)
        #expect(listed.output.contains("\(id)\tactive"))
        let revoked = try HearthCommand.run(
            [
                "admin-key", "revoke", "--project", "demo-project", String(id),
            ] + data
        )
        #expect(revoked.status == 0)
        #expect(try rotate(credential) == 401)
    }
}
