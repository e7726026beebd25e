import Foundation
import HearthTestSupport
import Testing

/// `Examples/SeedWalkthrough` runs to its end against the real binary with the development seed.
@Suite("The SeedWalkthrough example against the real server")
struct SeedWalkthroughTests {
    @Test(
        "the walkthrough registers, verifies an email through the outbox, and sees the ID change after an admin deletion"
    )
    func walkthrough() throws {
        let server = try HearthServerProcess()
        let walkthrough = URL(fileURLWithPath: HearthServerProcess.binaryPath).deletingLastPathComponent()
            .appendingPathComponent("SeedWalkthrough").path
        // The client SDK keeps its installation under $XDG_DATA_HOME: a directory of this test's.
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("walkthrough-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let outcome = try HearthCommand.run(
            [server.baseURL],
            executable: walkthrough,
            environment: ["XDG_DATA_HOME": data.path],
            timeout: 120
        )
        #expect(outcome.status == 0, "\(outcome.combined)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        func value(after prefix: String) -> String? {
            lines.first { $0.contains(prefix) }.map { String($0[$0.range(of: prefix)!.upperBound...]) }
        }
        let first = try #require(value(after: "installation ID: "))
        let second = try #require(value(after: "moved it to a new installation ID: "))
        #expect(first.count == 22 && second.count == 22 && first != second)
        #expect(value(after: "auth token: ")?.split(separator: ".").count == 3)
        #expect(value(after: "emailed link: ")?.hasPrefix("https://custom-domain.com/__/auth/links?link=") == true)
        #expect(value(after: "the code is for: ")?.hasPrefix("verifyEmail of walkthrough-") == true)
        #expect(lines.contains("4. applied; email verified: true"))
        #expect(lines.contains("   InstallationIDDidChange notifications: 1"))
        #expect(lines.contains("   the old token is refused online: installation deleted"))
        #expect(lines.last == "Done.")
    }

    @Test("the walkthrough says what is wrong when no Hearth answers")
    func noServer() throws {
        let walkthrough = URL(fileURLWithPath: HearthServerProcess.binaryPath).deletingLastPathComponent()
            .appendingPathComponent("SeedWalkthrough").path
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("walkthrough-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let outcome = try HearthCommand.run(
            ["http://127.0.0.1:9"],
            executable: walkthrough,
            environment: ["XDG_DATA_HOME": data.path],
            timeout: 120
        )
        #expect(outcome.status == 1)
        #expect(outcome.errors.hasPrefix("SeedWalkthrough: "), "\(outcome.combined)")
    }
}
