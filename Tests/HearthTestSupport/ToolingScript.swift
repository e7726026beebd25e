import Foundation
import HearthBase

/// Runs a Python script of the test tooling (`Tests/tooling`) against `server`, and answers its
/// exit status and everything it printed. `FIREBASE_AUTH_EMULATOR_HOST` points the stock
/// firebase-admin package at the server, for the scripts that use it.
public func runToolingScript(
    _ name: String,
    arguments: [String],
    against server: HearthServerProcess
) throws -> (status: Int32, output: String) {
    BrokenPipes.ignore()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: testPython)
    process.arguments = [testToolingDirectory.appendingPathComponent(name).path] + arguments
    var environment = ProcessInfo.processInfo.environment
    environment["FIREBASE_AUTH_EMULATOR_HOST"] = "127.0.0.1:\(server.port)"
    environment["PYTHONUNBUFFERED"] = "1"
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
}
