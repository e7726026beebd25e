public import Foundation

/// The `hearth` binary (or another program) run once as a command (`hearth admin-key list ...`),
/// to its end.
public enum HearthCommand {
    /// How a command ended and what it printed.
    public struct Outcome: Sendable {
        /// The exit status; -1 when the command was stopped at its timeout.
        public let status: Int32
        /// Standard output.
        public let output: String
        /// Standard error.
        public let errors: String
        /// Both, standard output first.
        public var combined: String { output + errors }
    }

    /// Runs `hearth <arguments>` (or `executable <arguments>`) in `directory` (the test's own
    /// when `nil`) with `environment` added to the test's, until it exits or `timeout` passes
    /// (then it is terminated). Output goes to files, not pipes, so a chatty command never
    /// blocks on a full pipe.
    public static func run(
        _ arguments: [String],
        executable: String = HearthServerProcess.binaryPath,
        in directory: URL? = nil,
        environment: [String: String] = [:],
        timeout: TimeInterval = 60
    ) throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hearth-command-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputFile = scratch.appendingPathComponent("stdout")
        let errorFile = scratch.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile)
        let errors = try FileHandle(forWritingTo: errorFile)
        defer {
            try? output.close()
            try? errors.close()
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = output
        process.standardError = errors
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        var status: Int32
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            exited.wait()
            status = -1
        } else {
            status = process.terminationStatus
        }
        let printed = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        var complained = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        if status == -1 { complained += "\n(stopped after \(Int(timeout)) s)" }
        return Outcome(status: status, output: printed, errors: complained)
    }

    /// Runs `hearth <arguments>` and answers its standard output; throws when it fails.
    public static func output(_ arguments: [String]) throws -> String {
        let outcome = try run(arguments)
        guard outcome.status == 0 else {
            throw TestHTTPError(
                "hearth \(arguments.joined(separator: " ")) failed (\(outcome.status)): \(outcome.errors)"
            )
        }
        return outcome.output
    }
}
