public import Foundation
import HearthBase

#if canImport(Glibc)
    import Glibc
#endif

/// The real `hearth` binary, started for a test on a free port with its own data directory and
/// database (``TestDatabase``: the SQLite file in that directory, or a PostgreSQL database of
/// its own). `stop()` sends SIGTERM; `kill()` sends SIGKILL; `restart()` starts it again on the
/// same data (and the same port when it can).
public final class HearthServerProcess: @unchecked Sendable {
    public let dataDirectory: URL
    /// Where the data lives; released (a PostgreSQL database dropped) with this server.
    public let database: TestDatabase
    public private(set) var port = 0
    public private(set) var process: Process?
    public let extraArguments: [String]
    public let environment: [String: String]
    private let lines = LineCollector()

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The path of the `hearth` binary built next to the test bundle (or `HEARTH_BINARY`).
    public static var binaryPath: String {
        if let path = ProcessInfo.processInfo.environment["HEARTH_BINARY"] { return path }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent().appendingPathComponent("hearth").path
    }

    /// Starts `hearth serve --port 0 --data <dir> [--database <url>] <arguments>` and waits
    /// until it is ready; on `database`, or a fresh one of the run's kind when `nil`; in
    /// `dataDirectory`, or a fresh one under the temporary directory when `nil`.
    public init(
        arguments: [String] = [],
        environment: [String: String] = [:],
        database: TestDatabase? = nil,
        dataDirectory: URL? = nil,
        waitUntilReady: Bool = true
    ) throws {
        BrokenPipes.ignore()
        self.dataDirectory =
            dataDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("hearth-e2e-\(UUID().uuidString)")
        self.database = try database ?? TestDatabase()
        extraArguments = arguments
        self.environment = environment
        try start(port: 0, waitUntilReady: waitUntilReady)
    }

    deinit {
        if let process, process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    /// The flags that point a data command (`hearth mail list …`) at this server's data:
    /// `--data <dir>`, and `--database <url>` on PostgreSQL.
    public var storeArguments: [String] { ["--data", dataDirectory.path] + database.arguments }

    /// What the store holds at rest, to search for secrets: on SQLite each `hearth.db*` file of
    /// the data directory (with its path), on PostgreSQL the `pg_dump` of the database (no path).
    public func storedContents() throws -> [(name: String, path: String?, bytes: Data)] {
        if let name = database.name { return [("pg_dump of \(name)", nil, try database.dump())] }
        return try FileManager.default.contentsOfDirectory(atPath: dataDirectory.path)
            .filter { $0.hasPrefix("hearth.db") }.sorted()
            .map { file in
                let path = dataDirectory.appendingPathComponent(file).path
                return (file, path, try Data(contentsOf: URL(fileURLWithPath: path)))
            }
    }

    /// Every line the server printed so far (its JSON log).
    public var output: [String] { lines.snapshot }

    /// A client connected to this server.
    public func client() -> TestHTTPClient { TestHTTPClient(port: port) }

    public func start(port requestedPort: Int, waitUntilReady: Bool = true) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binaryPath)
        process.arguments = ["serve", "--port", String(requestedPort)] + storeArguments + extraArguments
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in self.environment { environment[key] = value }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        lines.reset()
        lines.attach(pipe.fileHandleForReading)
        try process.run()
        self.process = process
        guard let readyPort = lines.waitForPort(timeout: 60) else {
            process.terminate()
            throw TestHTTPError("hearth did not report its port; output:\n" + lines.snapshot.joined(separator: "\n"))
        }
        port = readyPort
        if waitUntilReady, !lines.waitFor("hearth is ready", timeout: 60) {
            throw TestHTTPError("hearth did not become ready; output:\n" + lines.snapshot.joined(separator: "\n"))
        }
    }

    /// Sends SIGTERM and waits for the exit, and for its last lines to be read.
    @discardableResult
    public func stop() -> Int32 {
        guard let process, process.isRunning else { return process?.terminationStatus ?? 0 }
        process.terminate()
        process.waitUntilExit()
        lines.waitUntilClosed(timeout: 5)
        return process.terminationStatus
    }

    /// Sends SIGKILL: no chance to flush or close anything.
    public func kill() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Starts again on the same data directory and port.
    public func restart() throws {
        if process?.isRunning == true { stop() }
        try start(port: port)
    }

    /// Waits until a printed line contains `text`.
    public func waitForOutput(_ text: String, timeout: TimeInterval = 30) -> Bool {
        lines.waitFor(text, timeout: timeout)
    }
}

/// Collects a child's output lines on a background thread.
final class LineCollector: @unchecked Sendable {
    private let lock = NSCondition()
    private var collected: [String] = []
    /// Set when the child closed its output (it exited): nothing more will come.
    private var closed = false
    /// Which run of the process the lines belong to: a thread still reading an earlier run's
    /// pipe (whose end another child may have inherited and closes late) must not mark this
    /// run's output closed or add to it.
    private var run = 0

    var snapshot: [String] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }

    /// Forgets the lines of an earlier run of the process.
    func reset() {
        lock.lock()
        collected = []
        closed = false
        run += 1
        lock.unlock()
    }

    func attach(_ handle: FileHandle) {
        lock.lock()
        let attachedRun = run
        lock.unlock()
        let thread = Thread { [self] in
            var pending = Data()
            while true {
                let data = handle.availableData
                if data.isEmpty {
                    lock.lock()
                    if run == attachedRun { closed = true }
                    lock.broadcast()
                    lock.unlock()
                    break
                }
                pending.append(data)
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lock.lock()
                    if run == attachedRun { collected.append(line) }
                    lock.broadcast()
                    lock.unlock()
                }
            }
        }
        thread.start()
    }

    /// Waits until the child's output has been read to its end (a child that inherited the
    /// pipe may hold it open: hence the bound).
    func waitUntilClosed(timeout: TimeInterval) {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while !closed && lock.wait(until: deadline) {}
    }

    func waitFor(_ text: String, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while !collected.contains(where: { $0.contains(text) }) {
            if closed || !lock.wait(until: deadline) { return false }
        }
        return true
    }

    /// The port from the `http server listening` line.
    func waitForPort(timeout: TimeInterval) -> Int? {
        guard waitFor("\"port\":", timeout: timeout) else { return nil }
        for line in snapshot where line.contains("http server listening") {
            if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let port = object["port"] as? Int
            {
                return port
            }
        }
        return nil
    }
}

/// The Python of the test tooling's virtual environment (`HEARTH_TEST_PYTHON`, set by
/// `scripts/test`), or `python3` from the PATH.
public var testPython: String {
    ProcessInfo.processInfo.environment["HEARTH_TEST_PYTHON"] ?? "/usr/bin/python3"
}

/// The folder of the Python test tooling (`Tests/tooling`).
public var testToolingDirectory: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("tooling")
}
