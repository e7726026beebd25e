import Foundation
import HearthCrypto
import HearthTestSupport
import Testing

/// The master key as the real binary keeps it: in a file only its owner reads, in a directory
/// only its owner enters, and never replaced by another key that would orphan the stored ones.
@Suite struct MasterKeyTests {
    @Test func aFreshDataDirectoryIsMode0700AndItsMasterKey0600() throws {
        let server = try HearthServerProcess()
        let directory = try Self.mode(server.dataDirectory.path)
        let key = try Self.mode(server.dataDirectory.appendingPathComponent("master.key").path)
        #expect(directory == 0o700, "the data directory is \(String(directory, radix: 8))")
        #expect(key == 0o600, "master.key is \(String(key, radix: 8))")
        print("fresh data directory: mode \(String(directory, radix: 8)), master.key \(String(key, radix: 8))")
    }

    @Test func anotherMasterKeyStopsTheStartWithOneLineAndLeavesTheStoredKeysAsTheyWere() throws {
        let server = try HearthServerProcess()
        let published = try Self.publishedKeys(server)
        #expect(published.count >= 2)
        #expect(server.stop() == 0)
        let keyFile = server.dataDirectory.appendingPathComponent("master.key")
        let original = try Data(contentsOf: keyFile)
        let serve = ["serve", "--port", "0"] + server.storeArguments

        // Another valid key in the file, then the right file and another key in the variable.
        try Data((Self.anotherKey() + "\n").utf8).write(to: keyFile)
        let fromFile = try HearthCommand.run(serve, timeout: 30)
        try original.write(to: keyFile)
        let fromEnvironment = try HearthCommand.run(
            serve,
            environment: ["HEARTH_MASTER_KEY": Self.anotherKey()],
            timeout: 30
        )
        for (source, outcome) in [("master.key", fromFile), ("HEARTH_MASTER_KEY", fromEnvironment)] {
            #expect(outcome.status != 0 && outcome.status != -1, "\(source): exit \(outcome.status)")
            let complaints = outcome.errors.split(separator: "\n").filter { !$0.isEmpty }
            #expect(complaints.count == 1, "\(source): \(outcome.errors)")
            #expect(
                complaints.first?.localizedCaseInsensitiveContains("master key") == true,
                "\(source): \(outcome.errors)"
            )
            #expect(!outcome.output.contains("hearth is ready"), "\(source): \(outcome.output)")
            print(
                "another master key in \(source): exit \(outcome.status), \(complaints.count) line: \(complaints.first ?? "")"
            )
        }

        // With the right key again the stored keys open: the same keys are published.
        try server.start(port: 0)
        #expect(try Self.publishedKeys(server) == published)
    }

    /// The key IDs and public halves of the seed project's JWKS.
    private static func publishedKeys(_ server: HearthServerProcess) throws -> [String: String] {
        let response = try server.client().request("GET", "/v1/projects/demo-project/jwks")
        #expect(response.status == 200)
        let keys = response.json["keys"] as? [[String: Any]] ?? []
        var byID: [String: String] = [:]
        for key in keys {
            let kid = key["kid"] as? String ?? ""
            byID[kid] = ["n", "e", "x", "y"].compactMap { key[$0] as? String }.joined(separator: ".")
        }
        return byID
    }

    /// A valid master key (32 random bytes, base64url) other than any server's.
    private static func anotherKey() -> String { Base64URL.encode(SecureRandom.bytes(count: 32)) }

    private static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }
}
