import Dispatch
import Foundation
import HearthTestSupport
import Testing

/// Every example in `README.md` and `docs/*.md` runs, so the docs cannot drift from the binary.
///
/// The convention, by the fenced block's info string:
///
/// * ```` ```json ```` — a Hearth configuration file. It is written to a file and served with
///   `hearth serve --config FILE`; the test waits for the node to be ready, expects
///   `GET /healthz` to answer 200, stops it with SIGTERM and expects exit status 0.
/// * ```` ```sh ```` — command lines, run one after another. Comments (`# ...`) and blank lines
///   are skipped, a trailing `\` joins lines, `NAME=value` words before the command are set in
///   its environment. A line whose command is `hearth` runs the binary under test and must exit
///   0; `hearth serve ...` must instead become ready, answer `/healthz` with 200, and exit 0 on
///   SIGTERM. A line whose command is under `scripts/` (build, test, benchmark the whole
///   project) is not run here. Any other command fails the test: mark its block `text`.
/// * ```` ```swift ```` — Swift app or server code. Not run here: `OutsidePackageTests`
///   (HearthAdminTests) compiles every such block, each as the body of an `async throws`
///   function (its `import` lines moved to the top of its file), in a package outside the
///   repository that depends on the `Hearth` and `HearthAdmin` products by path.
/// * ```` ```nginx ```` — the nginx configuration of `docs/scaling.md`. Not run here:
///   `ScalingExampleTests` runs it in front of two nodes on PostgreSQL.
/// * Any other info string (`text` for synopses, sample output and wire examples; `http`, ...)
///   is not run. A fence with **no** info string fails the test, so every block says which
///   kind it is.
///
/// Substitutions the test makes, so examples read as a user types them:
///
/// * `hearth` is the binary built next to the tests (`HEARTH_BINARY` overrides it).
/// * Each `sh` block runs in a fresh working directory holding `hearth.json`, the first `json`
///   block of `docs/operations.md` (the configuration example), with a server started there by
///   the test (`hearth serve --config hearth.json --dev`, so both the example's projects and the
///   development seed's `demo-project` exist). Other commands get `--data <that server's data
///   directory>` and, on PostgreSQL, its `--database` (replacing any `--data` or `--database`
///   they name), so they work on the server's data as the docs say they do.
/// * `hearth serve` lines get `--port 0`, a temporary `--data` and a database of their own
///   (replacing any `--data` or `--database` they name); arguments naming a file of the working
///   directory become absolute paths.
@Suite struct DocumentationExampleTests {
    /// A fenced block (read by ``DocumentationBlocks``), named in test results by its place.
    struct Block: Sendable, CustomTestStringConvertible {
        let file: String
        /// The line of the opening fence (1-based).
        let line: Int
        let info: String
        let text: String
        var testDescription: String { "\(file):\(line) (\(info.isEmpty ? "no info string" : info))" }

        init(_ block: DocumentationBlocks.Block) {
            file = block.file
            line = block.line
            info = block.info
            text = block.text
        }
    }

    static let repository = DocumentationBlocks.repository

    static var documents: [String] { DocumentationBlocks.documents }

    static var allBlocks: [Block] { DocumentationBlocks.all.map(Block.init) }
    static var configurations: [Block] { allBlocks.filter { $0.info == "json" } }
    static var commandBlocks: [Block] { allBlocks.filter { $0.info == "sh" } }

    // MARK: - The tests

    @Test func theDocsHaveExamplesOfEachRunnableKind() {
        #expect(Self.documents.contains("docs/operations.md"))
        #expect(!Self.configurations.isEmpty, "no ```json configuration block found in the docs")
        #expect(!Self.commandBlocks.isEmpty, "no ```sh command block found in the docs")
    }

    @Test func everyFencedBlockSaysWhatKindItIs() {
        for block in Self.allBlocks where block.info.isEmpty || block.info.hasPrefix("unclosed") {
            Issue.record(
                """
                \(block.file):\(block.line): a fenced block \(block.info.isEmpty ? "without an info string" : "that is never closed"). \
                Mark it ```json (a configuration file to serve), ```sh (commands to run) or ```text \
                (a synopsis, output or wire example, not run).
                """
            )
        }
    }

    @Test(arguments: configurations)
    func aConfigurationExampleIsServedAndAnswersHealthz(_ block: Block) throws {
        let directory = try Self.workingDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("config.json")
        try Data(block.text.utf8).write(to: file)
        try Self.serve(["--config", file.path], block: block, what: "the configuration")
    }

    @Test(arguments: commandBlocks)
    func aCommandExampleExitsZero(_ block: Block) throws {
        let directory = try Self.workingDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = directory.appendingPathComponent("hearth.json")
        if let example = DocumentationBlocks.blocks(in: "docs/operations.md").first(where: { $0.info == "json" }) {
            try Data(example.text.utf8).write(to: configuration)
        }
        var server: HearthServerProcess?
        defer { server?.stop() }
        for command in Self.commandLines(block.text) {
            let location = "\(block.file):\(block.line + command.line)"
            let words: [String]
            do {
                words = try Self.words(command.text)
            } catch {
                Issue.record("\(location): `\(command.text)` cannot be read: \(error)")
                continue
            }
            var environment: [String: String] = [:]
            var rest = words[...]
            while let word = rest.first, let equals = word.firstIndex(of: "="),
                word[..<equals].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !word[..<equals].isEmpty
            {
                environment[String(word[..<equals])] = String(word[word.index(after: equals)...])
                rest = rest.dropFirst()
            }
            guard let program = rest.first else { continue }
            if program.hasPrefix("scripts/") { continue }
            guard program == "hearth" else {
                Issue.record(
                    "\(location): `\(command.text)` is not a hearth command; a ```sh block runs only hearth commands (mark the block ```text if it is not meant to run)"
                )
                continue
            }
            let arguments = Array(rest.dropFirst()).map { word -> String in
                let path = directory.appendingPathComponent(word).path
                return !word.hasPrefix("-") && FileManager.default.fileExists(atPath: path) ? path : word
            }
            if arguments.first == "serve" {
                let flags = Self.removing(["--port", "--data", "--database"], from: Array(arguments.dropFirst()))
                try Self.serve(flags, environment: environment, block: block, what: "`\(command.text)` (\(location))")
                continue
            }
            if server == nil {
                server = try HearthServerProcess(arguments: ["--config", configuration.path, "--dev"])
            }
            let outcome = try HearthCommand.run(
                Self.removing(["--data", "--database"], from: arguments) + server!.storeArguments,
                in: directory,
                environment: environment
            )
            #expect(
                outcome.status == 0,
                """
                \(location): `\(command.text)` exited \(outcome.status) (run as `hearth \
                \(Self.removing(["--data", "--database"], from: arguments).joined(separator: " ")) --data <server data>`):
                \(outcome.combined)
                """
            )
        }
    }

    // MARK: - Running

    private static func workingDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hearth-docs-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Starts `hearth serve --port 0 --data <temp> <arguments>`, expects `/healthz` 200 and
    /// exit status 0 on SIGTERM.
    private static func serve(
        _ arguments: [String],
        environment: [String: String] = [:],
        block: Block,
        what: String
    ) throws {
        let server: HearthServerProcess
        do {
            server = try HearthServerProcess(arguments: arguments, environment: environment)
        } catch {
            Issue.record("\(block.file):\(block.line): \(what) was not served: \(error)")
            return
        }
        let health = try server.client().request("GET", "/healthz")
        #expect(
            health.status == 200,
            "\(block.file):\(block.line): \(what): /healthz answered \(health.status) \(health.text)"
        )
        let status = server.stop()
        #expect(status == 0, "\(block.file):\(block.line): \(what): exit status \(status) on SIGTERM")
    }

    // MARK: - Reading command lines

    /// The commands of an `sh` block with the (0-based) line each starts on: continuations
    /// joined, blank and comment-only lines dropped.
    static func commandLines(_ text: String) -> [(line: Int, text: String)] {
        var commands: [(line: Int, text: String)] = []
        var pending: (line: Int, text: String)?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = String(raw)
            let continues = line.hasSuffix("\\")
            if continues { line.removeLast() }
            if var current = pending {
                current.text += " " + line
                pending = current
            } else {
                pending = (index + 1, line)
            }
            if !continues, let current = pending {
                let text = current.text.trimmingCharacters(in: .whitespaces)
                if !text.isEmpty, !text.hasPrefix("#") { commands.append((current.line, text)) }
                pending = nil
            }
        }
        return commands
    }

    struct UnreadableCommand: Error, CustomStringConvertible {
        let description: String
    }

    /// The words of a command line as a POSIX shell splits them: single and double quotes,
    /// backslash escapes, and a `#` starting a word begins a comment. Expansions (`$`, `` ` ``),
    /// pipes and redirections are refused: an example must be one plain command.
    static func words(_ line: String) throws -> [String] {
        var words: [String] = []
        var current: String?
        var characters = line.makeIterator()
        while let character = characters.next() {
            switch character {
            case " ", "\t":
                if let word = current { words.append(word) }
                current = nil
            case "#" where current == nil:
                return words
            case "'":
                var word = current ?? ""
                while let next = characters.next(), next != "'" { word.append(next) }
                current = word
            case "\"":
                var word = current ?? ""
                while let next = characters.next(), next != "\"" {
                    if next == "\\", let escaped = characters.next() { word.append(escaped) } else { word.append(next) }
                }
                current = word
            case "\\":
                if let escaped = characters.next() { current = (current ?? "") + String(escaped) }
            case "$", "`", "|", ">", "<", ";", "&":
                throw UnreadableCommand(description: "`\(character)` needs a shell; examples are single plain commands")
            default:
                current = (current ?? "") + String(character)
            }
        }
        if let word = current { words.append(word) }
        return words
    }

    /// `arguments` without the named flags and their values (`--flag value` or `--flag=value`).
    static func removing(_ flags: Set<String>, from arguments: [String]) -> [String] {
        var kept: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext {
                skipNext = false
                continue
            }
            if flags.contains(argument) {
                skipNext = true
                continue
            }
            if let equals = argument.firstIndex(of: "="), flags.contains(String(argument[..<equals])) { continue }
            kept.append(argument)
        }
        return kept
    }
}
