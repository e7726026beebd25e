import Foundation
import HearthTestSupport
import Testing

/// `hearth export` and `hearth import` move a whole data set: a database populated through the
/// real server, exported and imported into a fresh one, serves every installation, account,
/// pending code and queued email as before; a wrong master key and a target that already holds
/// data are refused, each with one line.
@Suite struct DataSetTransferTests {
    @Test func aDataSetExportedAndImportedIntoAFreshDatabaseServesAsBefore() throws {
        let scratch = try Scratch()
        let source = try DataSet.populated(database: scratch.database("source"))
        let file = scratch.path("data-set.txt")
        try scratch.transfer(["export", "--database", source.database, file], key: source.masterKey)

        let target = scratch.database("target")
        let imported = try scratch.transfer(["import", "--database", target, file], key: source.masterKey)
        #expect(imported.contains("installations: 3 (installations 3, installation_tombstones 0)"))
        #expect(imported.contains("accounts: 2 (accounts 1, refresh_tokens 1)"))
        try source.expectServed(from: target)
    }

    @Test func aWrongMasterKeyIsRefusedWithOneLineAndNothingIsWritten() throws {
        let scratch = try Scratch()
        let source = try DataSet.populated(database: scratch.database("source"))
        let file = scratch.path("data-set.txt")
        let wrongKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()

        let refusedExport = try hearth(["export", "--database", source.database, file], key: wrongKey)
        #expect(refusedExport.status == 1)
        #expect(refusedExport.errors.hasPrefix("hearth export: the master key does not open signing key "))
        #expect(refusedExport.errors.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(!FileManager.default.fileExists(atPath: file + ".partial"))

        try scratch.transfer(["export", "--database", source.database, file], key: source.masterKey)
        let target = scratch.database("target")
        let refusedImport = try hearth(["import", "--database", target, file], key: wrongKey)
        #expect(refusedImport.status == 1)
        #expect(refusedImport.errors.hasPrefix("hearth import: the master key does not open signing key "))
        #expect(refusedImport.errors.split(separator: "\n").count == 1)
        // Nothing was written: the right key imports without --replace.
        try scratch.transfer(["import", "--database", target, file], key: source.masterKey)
    }

    @Test func aDatabaseThatHoldsDataIsReplacedOnlyWhenAskedTo() throws {
        let scratch = try Scratch()
        let source = try DataSet.populated(database: scratch.database("source"))
        let file = scratch.path("data-set.txt")
        try scratch.transfer(["export", "--database", source.database, file], key: source.masterKey)

        // Another server's data: its own projects and keys, sealed with another master key.
        let other = try DataSet.populated(database: scratch.database("other"))
        let refused = try hearth(["import", "--database", other.database, file], key: source.masterKey)
        #expect(refused.status == 1)
        #expect(
            refused.errors == "hearth import: the database already holds data; pass --replace to delete it and import\n"
        )
        try scratch.transfer(["import", "--database", other.database, "--replace", file], key: source.masterKey)
        try source.expectServed(from: other.database)

        let truncated = scratch.path("truncated.txt")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try String(text.dropLast(30)).write(toFile: truncated, atomically: true, encoding: .utf8)
        let partial = try hearth(["import", "--database", scratch.database("third"), truncated], key: source.masterKey)
        #expect(partial.status == 1)
        #expect(partial.errors.contains("is not a whole data set"))

        let missing = scratch.path("missing.db")
        let nothing = try hearth(["export", "--database", "sqlite:" + missing, file], key: source.masterKey)
        #expect(nothing.status == 2)
        #expect(nothing.errors == "hearth export: there is no database at \(missing)\n")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test(.enabled(if: PostgresDatabase.server != nil, "needs HEARTH_TEST_POSTGRES_URL"))
    func aDataSetMovesFromSQLiteToPostgreSQLAndBackAndServesOnBoth() throws {
        let scratch = try Scratch()
        let source = try DataSet.populated(database: scratch.database("source"))
        let fromSQLite = scratch.path("from-sqlite.txt")
        try scratch.transfer(["export", "--database", source.database, fromSQLite], key: source.masterKey)

        let postgres = try PostgresDatabase()
        let imported = try scratch.transfer(["import", "--database", postgres.url, fromSQLite], key: source.masterKey)
        #expect(imported.contains("installations: 3 (installations 3, installation_tombstones 0)"))
        // Exported before it is served (serving uses the code and changes the password), so
        // both copies can be checked in full.
        let fromPostgres = scratch.path("from-postgres.txt")
        try scratch.transfer(["export", "--database", postgres.url, fromPostgres], key: source.masterKey)
        // The same rows, value for value; only their order within a table may differ (text
        // keys sort by the PostgreSQL database's collation).
        let lines = { (path: String) in
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").sorted()
        }
        #expect(try lines(fromPostgres) == lines(fromSQLite))
        try source.expectServed(from: postgres.url)

        let back = scratch.database("back")
        try scratch.transfer(["import", "--database", back, fromPostgres], key: source.masterKey)
        try source.expectServed(from: back)
    }

    @Test func aFileFromAnotherSchemaIsRefused() throws {
        let scratch = try Scratch()
        let source = try DataSet.populated(database: scratch.database("source"))
        let file = scratch.path("data-set.txt")
        try scratch.transfer(["export", "--database", source.database, file], key: source.masterKey)
        var lines = try String(contentsOfFile: file, encoding: .utf8).split(
            separator: "\n",
            omittingEmptySubsequences: false
        )
        #expect(lines[1].hasPrefix("schema 1 2 "))
        lines[1] += " 999"
        let later = scratch.path("later.txt")
        try lines.joined(separator: "\n").write(toFile: later, atomically: true, encoding: .utf8)
        let refused = try hearth(["import", "--database", scratch.database("target"), later], key: source.masterKey)
        #expect(refused.status == 1)
        #expect(refused.errors.contains(" 402 999; the database has 1 2 "), "\(refused.errors)")
        #expect(refused.errors.hasSuffix("migrate both to the same hearth version first\n"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func onATerminalAProgressBarRunsOnStandardError() throws {
        let scratch = try Scratch()
        let source = try DataSet.populated(database: scratch.database("source"))
        // script(1) runs the command on a pseudo-terminal and copies what it wrote.
        let command = [
            HearthServerProcess.binaryPath, "export", "--database", source.database, scratch.path("out.txt"),
        ]
        let outcome = try HearthCommand.run(
            ["-qec", command.joined(separator: " "), "/dev/null"],
            executable: "/usr/bin/script",
            environment: ["HEARTH_MASTER_KEY": source.masterKey]
        )
        #expect(outcome.status == 0, "\(outcome.combined)")
        #expect(outcome.output.contains("\rexporting [##############################] 100% "))
        #expect(outcome.output.contains("installations: 3"))
    }

    @Test func migrateAppliesThePendingStepsAndThenSaysTheSchemaIsUpToDate() throws {
        let scratch = try Scratch()
        let database = scratch.database("fresh")
        let first = try HearthCommand.run(["migrate", "--database", database])
        #expect(first.status == 0)
        let lines = first.output.split(separator: "\n")
        #expect(lines.first == "applied step 1: projects and signing keys")
        let steps = lines.count - 1
        #expect(steps > 10)
        #expect(lines.last == "the schema is at \(steps) steps")

        let again = try HearthCommand.run(["migrate", "--database", database])
        #expect(again.status == 0)
        #expect(again.output == "the schema is up to date at \(steps) steps\n")
    }
}

/// A database of its own on the PostgreSQL server `HEARTH_TEST_POSTGRES_URL` names, dropped
/// when released.
private final class PostgresDatabase {
    static let server = ProcessInfo.processInfo.environment["HEARTH_TEST_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }
    let url: String
    private let name = "transfer_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "_")

    init() throws {
        var components = try #require(Self.server.flatMap { URLComponents(string: $0) })
        components.path = "/" + name
        url = try #require(components.string)
        try Self.psql("CREATE DATABASE \(name)")
    }

    deinit { try? Self.psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }

    private static func psql(_ sql: String) throws {
        let outcome = try HearthCommand.run(
            ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", server ?? "", "-c", sql],
            executable: "/usr/bin/psql"
        )
        guard outcome.status == 0 else { throw TestHTTPError("psql \(sql): \(outcome.combined)") }
    }
}

/// Runs `hearth <arguments>` with `key` as the master key.
private func hearth(_ arguments: [String], key: String) throws -> HearthCommand.Outcome {
    try HearthCommand.run(arguments, environment: ["HEARTH_MASTER_KEY": key])
}

/// A temporary directory for the databases and files of one test, removed when released.
private final class Scratch {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hearth-transfer-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The `--database` URL of a SQLite database named `name` here.
    func database(_ name: String) -> String { "sqlite:" + path("\(name).db") }

    /// Runs `hearth <arguments>` with `key` as the master key; answers its output, failing the
    /// test when it fails.
    @discardableResult
    func transfer(_ arguments: [String], key: String) throws -> String {
        let outcome = try hearth(arguments, key: key)
        try #require(outcome.status == 0, "hearth \(arguments.joined(separator: " ")): \(outcome.combined)")
        #expect(outcome.errors.isEmpty, "standard error is not a terminal: no progress bar")
        return outcome.output
    }
}

/// What a populated data set holds, to check against a server serving a copy of it.
private struct DataSet {
    let database: String
    let masterKey: String
    let installations: [Registered]
    let email = "ada@example.com"
    let password = "password-1"
    let resetCode: String
    let mailID: String

    /// The development seed served on `database`, with three installations, an account that
    /// has signed in, a pending password-reset code and the email that carries it.
    static func populated(database: String) throws -> DataSet {
        let server = try HearthServerProcess(arguments: ["--database", database])
        defer { server.stop() }
        let client = server.client()
        let installations = try (0..<3).map { _ in try client.register() }
        _ = try client.signUp("ada@example.com", "password-1")
        #expect(try client.sendOobCode(["requestType": "PASSWORD_RESET", "email": "ada@example.com"]).status == 200)
        let code = try #require(try client.pendingCode("PASSWORD_RESET", for: "ada@example.com"))
        let masterKey = try String(
            contentsOf: server.dataDirectory.appendingPathComponent("master.key"),
            encoding: .utf8
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
        let mail = try HearthCommand.output(["mail", "list", "--project", "demo-project", "--database", database])
        let mailID = try #require(
            mail.split(separator: "\n").first { $0.contains("\tPASSWORD_RESET\t") }?.split(separator: "\t").first
        )
        return DataSet(
            database: database,
            masterKey: masterKey,
            installations: installations,
            resetCode: code.oobCode,
            mailID: String(mailID)
        )
    }

    /// Serves `database` with this data set's master key and checks that everything works:
    /// every installation gets a token, the account signs in, the reset code applies, and the
    /// email is there with the code's link in it.
    func expectServed(from database: String) throws {
        let shown = try hearth(
            ["mail", "show", "--project", "demo-project", mailID, "--database", database],
            key: masterKey
        )
        #expect(shown.status == 0, "\(shown.combined)")
        #expect(shown.output.contains(resetCode), "the queued email opens with its link")

        let server = try HearthServerProcess(
            arguments: ["--database", database],
            environment: ["HEARTH_MASTER_KEY": masterKey]
        )
        defer { server.stop() }
        let client = server.client()
        for installation in installations {
            let token = try client.generateToken(installation)
            #expect(token.status == 200, "\(installation.fid): \(token.text)")
        }
        #expect(try client.signIn(email, password).status == 200)
        let reset = try client.call("accounts:resetPassword", ["oobCode": resetCode, "newPassword": "password-2"])
        #expect(reset.status == 200, "\(reset.text)")
        #expect(try client.signIn(email, "password-2").status == 200)
    }
}
