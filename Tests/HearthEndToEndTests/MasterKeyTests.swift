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

    @Test func aMasterKeyFileServesTwoStartsWithTheSameKeysAndNoMasterKeyIsWritten() throws {
        let keyFile = try Self.keyFile(Self.anotherKey())
        defer { try? FileManager.default.removeItem(at: keyFile.deletingLastPathComponent()) }
        let server = try HearthServerProcess(arguments: ["--master-key-file", keyFile.path])
        let masterKey = server.dataDirectory.appendingPathComponent("master.key").path
        let published = try Self.publishedKeys(server)
        #expect(published.count >= 2)
        #expect(server.stop() == 0)

        // A second start with the same file, now readable by others: the same keys, and a warning.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile.path)
        try server.start(port: 0)
        let again = try Self.publishedKeys(server)
        #expect(again == published)
        let warnings = server.output.filter { $0.contains("readable by group or others") }
        #expect(warnings.count == 1, "\(server.output)")
        let listed = try HearthCommand.run(
            ["keys", "list", "--project", "demo-project", "--master-key-file", keyFile.path] + server.storeArguments
        )
        #expect(listed.status == 0, "\(listed.combined)")
        #expect(!FileManager.default.fileExists(atPath: masterKey))
        print(
            "--master-key-file: \(published.count) keys, second start \(again == published ? "same" : "different") keys, "
                + "\(warnings.count) warning at mode 644, keys list exit \(listed.status), "
                + "master.key written: \(FileManager.default.fileExists(atPath: masterKey))"
        )
    }

    @Test func aMissingOrMalformedKeyFileAndAFileBesideTheVariableEachStopTheStartWithOneLine() throws {
        let key = Self.anotherKey()
        let keyFile = try Self.keyFile(key)
        defer { try? FileManager.default.removeItem(at: keyFile.deletingLastPathComponent()) }
        let server = try HearthServerProcess(arguments: ["--master-key-file", keyFile.path])
        #expect(server.stop() == 0)
        let malformed = keyFile.deletingLastPathComponent().appendingPathComponent("malformed.key")
        try Data("not a key\n".utf8).write(to: malformed)
        let serve = ["serve", "--port", "0"] + server.storeArguments
        let cases: [(String, [String], [String: String])] = [
            ("missing file", ["--master-key-file", keyFile.path + ".missing"], [:]),
            ("malformed file", ["--master-key-file", malformed.path], [:]),
            ("file and variable", ["--master-key-file", keyFile.path], ["HEARTH_MASTER_KEY": key]),
        ]
        for (name, flags, environment) in cases {
            let outcome = try HearthCommand.run(serve + flags, environment: environment, timeout: 30)
            let complaints = outcome.errors.split(separator: "\n").filter { !$0.isEmpty }
            #expect(outcome.status == 2, "\(name): exit \(outcome.status)")
            #expect(complaints.count == 1, "\(name): \(outcome.errors)")
            #expect(!outcome.output.contains("hearth is ready"), "\(name): \(outcome.output)")
            print("\(name): exit \(outcome.status), \(complaints.count) line: \(complaints.first ?? "")")
        }
        #expect(!FileManager.default.fileExists(atPath: server.dataDirectory.appendingPathComponent("master.key").path))
    }

    @Test func aNodeWithoutTheKeyOnADatabaseThatHoldsSigningKeysRefusesAndMakesNoMasterKey() throws {
        let server = try HearthServerProcess()
        #expect(try Self.publishedKeys(server).count >= 2)
        #expect(server.stop() == 0)
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: fresh) }
        // The first node's database: its PostgreSQL database, or its SQLite file.
        let database =
            server.database.name == nil
            ? ["--database", "sqlite:\(server.dataDirectory.path)/hearth.db"] : server.database.arguments
        let outcome = try HearthCommand.run(
            ["serve", "--port", "0", "--data", fresh.path] + database,
            timeout: 30
        )
        let complaints = outcome.errors.split(separator: "\n").filter { !$0.isEmpty }
        let madeKey = FileManager.default.fileExists(atPath: fresh.appendingPathComponent("master.key").path)
        #expect(outcome.status != 0 && outcome.status != -1, "exit \(outcome.status)")
        #expect(complaints.count == 1, "\(outcome.errors)")
        #expect(complaints.first?.localizedCaseInsensitiveContains("master key") == true, "\(outcome.errors)")
        #expect(!outcome.output.contains("hearth is ready"), "\(outcome.output)")
        #expect(!madeKey)
        print(
            "a second node without the key: exit \(outcome.status), \(complaints.count) line, master.key made: \(madeKey): "
                + "\(complaints.first ?? "")"
        )
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

    /// A file holding `key`, mode 0600, in a directory of its own.
    private static func keyFile(_ key: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("master.key")
        try Data((key + "\n").utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return file
    }

    private static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }
}
