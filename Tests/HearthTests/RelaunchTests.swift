import Foundation
import Hearth
import HearthTestSupport
import Testing

/// Two launches of a real program on the client SDK (`Tests/ClientLaunch`) against the real
/// server, on one data directory, as an app is quit and opened again.
@Suite("A restarted process against a real hearth server")
struct RelaunchTests {
    @Test("A second launch reads the persisted installation and user: same FID and uid, no new registration or sign-in")
    func secondLaunchRestores() throws {
        let harness = try ClientHarness()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("relaunch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let email = "relaunch-\(UUID().uuidString.prefix(8).lowercased())@example.com"

        let first = try launch(harness, data: data, email: email)
        #expect(first.user.hasSuffix("(signed up)"), "\(first)")
        let second = try launch(harness, data: data, email: email)
        #expect(second.user.hasSuffix("(restored)"), "\(second)")

        #expect(InstallationID.isWellFormed(first.fid))
        #expect(second.fid == first.fid)
        #expect(second.user.split(separator: " ").first == first.user.split(separator: " ").first)
        #expect(second.installationToken.split(separator: ".").count == 3)
        #expect(second.idToken.split(separator: ".").count == 3)

        // Counted at the server: one registration and one sign-up across both launches; the
        // second launch's calls were token renewals only, from the persisted refresh tokens
        // (one of each kind). The listing is the last request, so
        // once its access-log line is out, every earlier one is too.
        #expect(try harness.serverInstallations().compactMap { $0["fid"] as? String } == [first.fid])
        #expect(harness.server.waitForOutput(#""path":"/hearth/v1/projects/\#(Seed.projectID)/installations""#))
        let requests = harness.server.output.compactMap(AccessLogLine.init)
        #expect(requests.filter { $0.path == "/v1/projects/\(Seed.projectID)/installations" }.count == 1)
        #expect(requests.filter { $0.path.hasSuffix("/authTokens:generate") }.count == 1)
        #expect(requests.filter { $0.path.hasPrefix("/v1/accounts:signUp") }.count == 1)
        #expect(requests.filter { $0.path.hasPrefix("/v1/accounts:signIn") }.isEmpty)
        #expect(requests.filter { $0.path == "/v1/token" }.count == 1)

        // The entries are files of mode 0600 under $XDG_DATA_HOME/hearth.
        let directory = data.appendingPathComponent("hearth")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files.map { $0.prefix { $0 != "." } } == ["installation", "user"])
        for file in files {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: directory.appendingPathComponent(file).path
            )
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
    }

    /// What one launch printed.
    struct Launch: CustomStringConvertible {
        var fid: String
        var installationToken: String
        var user: String
        var idToken: String
        var description: String { "fid \(fid), user \(user)" }
    }

    private func launch(_ harness: ClientHarness, data: URL, email: String) throws -> Launch {
        let program = URL(fileURLWithPath: HearthServerProcess.binaryPath).deletingLastPathComponent()
            .appendingPathComponent("ClientLaunch").path
        let outcome = try HearthCommand.run(
            [harness.server.baseURL, email, "relaunch password"],
            executable: program,
            environment: ["XDG_DATA_HOME": data.path],
            timeout: 60
        )
        guard outcome.status == 0 else { throw TestHTTPError("ClientLaunch failed: \(outcome.combined)") }
        let lines = outcome.output.split(separator: "\n").map(String.init)
        func value(_ label: String) throws -> String {
            guard let line = lines.first(where: { $0.hasPrefix("\(label): ") }) else {
                throw TestHTTPError("ClientLaunch printed no \(label): \(outcome.combined)")
            }
            return String(line.dropFirst(label.count + 2))
        }
        return Launch(
            fid: try value("installation ID"),
            installationToken: try value("installation token"),
            user: try value("user"),
            idToken: try value("ID token")
        )
    }
}

/// One line of the server's JSON access log.
struct AccessLogLine {
    var method: String
    var path: String

    init?(_ line: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let method = object["method"] as? String, let path = object["path"] as? String
        else { return nil }
        self.method = method
        self.path = path
    }
}
