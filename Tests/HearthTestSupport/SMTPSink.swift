public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real SMTP server for tests (`Tests/tooling/smtp_sink.py`, aiosmtpd): every message it
/// accepts is parsed by Python's `email` package and recorded as one JSON object with its
/// decoded headers, bodies and line statistics. It can be stopped and started again on the
/// same port, to play an outage.
public final class SMTPSink: @unchecked Sendable {
    public let directory: URL
    public private(set) var port: Int
    private let options: [String]
    private var process: Process?

    /// Starts the sink on `port` (0: a free one) with extra `options` (`--delay 1`, `--reject x`, ...).
    public init(port: Int = 0, options: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-sink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.port = port
        self.options = options
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    public var url: String { "smtp://127.0.0.1:\(port)" }

    /// Starts the sink (again), on the port it had.
    public func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: testPython)
        process.arguments =
            [
                testToolingDirectory.appendingPathComponent("smtp_sink.py").path, "--out", directory.path, "--port",
                String(port),
            ]
            + options
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        self.process = process
        var firstLine = Data()
        while !firstLine.contains(10) {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty {
                throw TestHTTPError("the SMTP sink did not start (is aiosmtpd installed for \(testPython)?)")
            }
            firstLine.append(data)
        }
        let announcement = try JSONSerialization.jsonObject(with: firstLine.prefix { $0 != 10 }) as? [String: Any]
        guard let listening = announcement?["listening"] as? Int else {
            throw TestHTTPError("the SMTP sink said \(String(decoding: firstLine, as: UTF8.self))")
        }
        port = listening
        // Keep draining its output so it never blocks on a full pipe.
        output.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
    }

    /// Stops the sink; connections are refused until `start()`.
    public func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        // A sink that ignores SIGTERM must not hang the suite.
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        self.process = nil
    }

    /// Every message received so far, oldest first.
    public func messages() -> [[String: Any]] {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent("messages.jsonl").path)
        else { return [] }
        return data.split(separator: 10).compactMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    /// Waits until `count` messages have arrived (or `timeout` passes) and answers them all.
    public func waitForMessages(_ count: Int, timeout: TimeInterval = 30) -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(timeout)
        var received = messages()
        while received.count < count && Date() < deadline {
            usleep(50_000)
            received = messages()
        }
        return received
    }

    /// Waits until messages with every one of `messageIDs` have arrived; answers all received.
    public func waitForMessageIDs(_ messageIDs: Set<String>, timeout: TimeInterval = 30) -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(timeout)
        var received = messages()
        while !messageIDs.isSubset(of: Set(received.compactMap(\.messageID))) && Date() < deadline {
            usleep(50_000)
            received = messages()
        }
        return received
    }
}

extension Dictionary where Key == String, Value == Any {
    /// The decoded header `name` of a message the sink recorded.
    public func header(_ name: String) -> String? { (self["headers"] as? [String: Any])?[name] as? String }

    /// The `Message-ID` of a message the sink recorded.
    public var messageID: String? { header("Message-ID") }
}
