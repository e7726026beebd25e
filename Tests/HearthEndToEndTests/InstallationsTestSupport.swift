import Foundation
import HearthCrypto
import HearthTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Values of the development seed and of a second project the installation tests start next
/// to it (`--config` + `--dev`), for "another project" cases.
enum Seed {
    static let project = "demo-project"
    static let number = "100000000000"
    static let apiKey = "demo-api-key"
    static let webApp = "1:100000000000:web:0a1b2c3d4e5f6789"
    static let iosApp = "1:100000000000:ios:0a1b2c3d4e5f6789"
    static let androidApp = "1:100000000000:android:0a1b2c3d4e5f6789"
    static let admin = ("Authorization", "Bearer owner")

    static let otherProject = "other-project"
    static let otherNumber = "200000000000"
    static let otherAPIKey = "other-api-key"
    static let otherApp = "1:200000000000:web:00ff00ff00ff"
    /// The other project's token lifetime, to show the setting is per project.
    static let otherTokenLifetime = 3_600
}

extension HearthServerProcess {
    /// A server running the seed and `other-project` (one-hour installation tokens).
    static func withTwoProjects(_ arguments: [String] = []) throws -> HearthServerProcess {
        // Always the same text: one file serves every test (written atomically).
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-config-two-projects.json")
        let document = """
            {"projects": [{"projectId": "\(Seed.otherProject)", "projectNumber": "\(Seed.otherNumber)",
              "apiKeys": ["\(Seed.otherAPIKey)"], "apps": [{"appId": "\(Seed.otherApp)", "platform": "web"}],
              "settings": {"installationTokenLifetimeSeconds": \(Seed.otherTokenLifetime)}}]}
            """
        try Data(document.utf8).write(to: config, options: .atomic)
        return try HearthServerProcess(arguments: ["--config", config.path, "--dev"] + arguments)
    }
}

/// An installation as a client holds it after registering.
struct Registered {
    let fid: String
    let refreshToken: String
    let token: String
}

extension TestHTTPClient {
    /// Registers an installation the way the JS SDK does.
    func register(
        fid: String? = nil,
        app: String = Seed.webApp,
        project: String = Seed.project,
        apiKey: String = Seed.apiKey
    ) throws -> Registered {
        var body: [String: Any] = ["appId": app, "authVersion": "FIS_v2", "sdkVersion": "w:0.6.24"]
        body["fid"] = fid ?? generateClientFID()
        let response = try json(
            "POST",
            "/v1/projects/\(project)/installations",
            body,
            headers: [("x-goog-api-key", apiKey)]
        )
        guard response.status == 200, let fid = response.json["fid"] as? String,
            let refresh = response.json["refreshToken"] as? String,
            let token = (response.json["authToken"] as? [String: Any])?["token"] as? String
        else { throw TestHTTPError("registration failed: \(response.status) \(response.text)") }
        return Registered(fid: fid, refreshToken: refresh, token: token)
    }

    /// `POST .../authTokens:generate` with the iOS body.
    func generateToken(
        _ installation: Registered,
        refreshToken: String? = nil,
        project: String = Seed.project,
        body: Any = ["installation": ["sdkVersion": "i:11.0.0"]]
    ) throws -> TestResponse {
        try json(
            "POST",
            "/v1/projects/\(project)/installations/\(installation.fid)/authTokens:generate",
            body,
            headers: [
                ("x-goog-api-key", Seed.apiKey),
                ("Authorization", "FIS_v2 \(refreshToken ?? installation.refreshToken)"),
            ]
        )
    }

    /// `DELETE .../installations/{fid}` as Android sends it (no body).
    func deleteInstallation(_ installation: Registered, refreshToken: String? = nil) throws -> TestResponse {
        try request(
            "DELETE",
            "/v1/projects/\(Seed.project)/installations/\(installation.fid)",
            headers: [
                ("x-goog-api-key", Seed.apiKey),
                ("Authorization", "FIS_v2 \(refreshToken ?? installation.refreshToken)"),
            ]
        )
    }

    /// An admin GET of a Hearth admin path of the seed project.
    func admin(_ method: String, _ path: String, _ body: Any? = nil) throws -> TestResponse {
        try json(method, "/hearth/v1/projects/\(Seed.project)/\(path)", body, headers: [Seed.admin])
    }

    /// Every installation of the seed project, through the admin API.
    func storedInstallations() throws -> [[String: Any]] {
        try admin("GET", "installations?pageSize=1000").json["installations"] as? [[String: Any]] ?? []
    }

    /// The server's current time (test clock) in seconds.
    func serverNowSeconds() throws -> Int64 {
        let response = try request("GET", "/emulator/v1/clock")
        return Int64(response.json["nowMillis"] as? String ?? "0")! / 1_000
    }

    func advanceClock(days: Int) throws {
        let response = try json("POST", "/emulator/v1/clock", ["advanceSeconds": days * 86_400])
        guard response.status == 200 else { throw TestHTTPError("clock: \(response.text)") }
    }
}

/// A FID made the way the JS SDK makes one.
func generateClientFID() -> String {
    var bytes = SecureRandom.bytes(count: 17)
    bytes[0] = 0b0111_0000 | (bytes[0] & 0x0F)
    return String(Base64URL.encode(bytes).prefix(22))
}

/// The decoded header and payload of a compact JWT.
func jwtParts(_ token: String) throws -> (header: [String: Any], payload: [String: Any]) {
    let parts = token.split(separator: ".")
    guard parts.count == 3, let header = Base64URL.decode(parts[0]), let payload = Base64URL.decode(parts[1]),
        let headerObject = try JSONSerialization.jsonObject(with: Data(header)) as? [String: Any],
        let payloadObject = try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
    else { throw TestHTTPError("not a JWT: \(token)") }
    return (headerObject, payloadObject)
}

/// A real HTTP receiver for webhooks (`Tests/tooling/webhook_receiver.py`) in a child process,
/// stopped when the value is released.
final class WebhookReceiver: @unchecked Sendable {
    let port: Int
    private let process: Process
    private let received = ReceivedLines()

    var url: String { "http://127.0.0.1:\(port)/hooks/installations" }

    /// Answers 500 to the first `failFirst` requests and 200 afterwards; with `redirectTo`,
    /// 302 to that URL to every request.
    init(failFirst: Int = 0, redirectTo: String? = nil) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: testPython)
        process.arguments =
            [
                testToolingDirectory.appendingPathComponent("webhook_receiver.py").path, "--fail-first",
                String(failFirst),
            ] + (redirectTo.map { ["--redirect-to", $0] } ?? [])
        let pipe = Pipe()
        process.standardOutput = pipe
        // Not the test's own stderr: a receiver left behind must not hold the runner's pipe.
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = pipe.fileHandleForReading
        var port: Int?
        var pending = Data()
        while port == nil {
            let data = handle.availableData
            guard !data.isEmpty else { throw TestHTTPError("the webhook receiver did not start") }
            pending.append(data)
            if let newline = pending.firstIndex(of: 10),
                let object = try JSONSerialization.jsonObject(with: pending[..<newline]) as? [String: Any]
            {
                port = object["listening"] as? Int
                pending.removeSubrange(...newline)
            }
        }
        self.port = port!
        received.collect(from: handle, startingWith: pending)
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Waits until `count` requests have arrived and answers them (or what came by the timeout).
    func requests(count: Int, timeout: TimeInterval = 20) -> [[String: Any]] {
        received.wait(for: count, timeout: timeout)
    }
}

/// The receiver's output lines, parsed, filled by a reader thread.
private final class ReceivedLines: @unchecked Sendable {
    private let lock = NSCondition()
    private var lines: [[String: Any]] = []

    func collect(from handle: FileHandle, startingWith leftover: Data) {
        Thread { [self] in
            var buffer = leftover
            while true {
                while let newline = buffer.firstIndex(of: 10) {
                    let line = buffer[buffer.startIndex..<newline]
                    buffer.removeSubrange(buffer.startIndex...newline)
                    if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] {
                        lock.lock()
                        lines.append(object)
                        lock.broadcast()
                        lock.unlock()
                    }
                }
                let data = handle.availableData
                if data.isEmpty { break }
                buffer.append(data)
            }
        }.start()
    }

    func wait(for count: Int, timeout: TimeInterval) -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while lines.count < count, lock.wait(until: deadline) {}
        return lines
    }
}

/// Polls `condition` every 50 ms until it holds or `timeout` passes.
func eventually(timeout: TimeInterval = 15, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(50_000)
    }
    return try condition()
}
