import Foundation
import HearthAdmin
import HearthTestSupport
import HearthTransport
import Synchronization

@testable import Hearth

/// The development seed's values, and those of a second project the admin tests serve beside
/// it (`--config` + `--dev`) for the foreign-project cases.
enum Seed {
    static let projectID = "demo-project"
    static let projectNumber = "100000000000"
    static let apiKey = "demo-api-key"
    static let iosAppID = "1:100000000000:ios:0a1b2c3d4e5f6789"
    static let owner = AdminCredential.bearer("owner")

    static let otherProjectID = "other-project"
    static let otherProjectNumber = "200000000000"
    static let otherAPIKey = "other-api-key"
    static let otherAppID = "1:200000000000:web:00ff00ff00ff"
}

/// A clock a test sets and moves by hand, starting at the real time (so the real server's
/// tokens are current).
final class AdminTime: Sendable {
    private let current = Mutex(Date())

    var now: Date { current.withLock { $0 } }

    func advance(by interval: TimeInterval) { current.withLock { $0 += interval } }
}

/// A transport that sends through URLSession and counts the requests by path.
final class CountingTransport: HTTPTransport {
    private let inner = URLSessionTransport()
    private let paths = Mutex<[String]>([])

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        paths.withLock { $0.append(request.url.path) }
        return try await inner.send(request)
    }

    /// How many requests went to `path`.
    func count(_ path: String) -> Int { paths.withLock { $0.filter { $0 == path }.count } }
}

/// A real `hearth` server for one test, with the development seed plus `other-project`, and a
/// storage directory for the client apps the test makes; both go when the harness does.
final class AdminHarness: @unchecked Sendable {
    let server: HearthServerProcess
    let storage: URL
    private let config: URL

    init() throws {
        config = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-admin-tests-\(UUID().uuidString).json")
        let document = """
            {"projects": [{"projectId": "\(Seed.otherProjectID)", "projectNumber": "\(Seed.otherProjectNumber)",
              "apiKeys": ["\(Seed.otherAPIKey)"], "apps": [{"appId": "\(Seed.otherAppID)", "platform": "web"}]}]}
            """
        try Data(document.utf8).write(to: config, options: .atomic)
        server = try HearthServerProcess(arguments: ["--config", config.path, "--dev", "--test-clock"])
        storage = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-admin-clients-\(UUID().uuidString)", isDirectory: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: storage)
        try? FileManager.default.removeItem(at: config)
    }

    var baseURL: URL { URL(string: server.baseURL)! }

    /// An admin app for `projectID` on its own clock and transport (and so its own key cache).
    func admin(
        projectID: String = Seed.projectID,
        time: AdminTime = AdminTime(),
        transport: any HTTPTransport = URLSessionTransport()
    ) -> AdminApp {
        AdminApp(
            projectID: projectID,
            credential: Seed.owner,
            baseURL: baseURL,
            transport: transport,
            now: { time.now }
        )
    }

    /// A client app of the seed's iOS app (or of `other-project`'s web app), with its own storage.
    func client(otherProject: Bool = false) -> HearthApp {
        let options =
            otherProject
            ? HearthOptions(googleAppID: Seed.otherAppID, gcmSenderID: Seed.otherProjectNumber)
            : HearthOptions(googleAppID: Seed.iosAppID, gcmSenderID: Seed.projectNumber)
        options.apiKey = otherProject ? Seed.otherAPIKey : Seed.apiKey
        options.projectID = otherProject ? Seed.otherProjectID : Seed.projectID
        options.baseURL = baseURL
        let name = "admin-test-\(UUID().uuidString)"
        return HearthApp(
            name: name,
            options: options,
            services: HearthServices(
                now: { Date() },
                storage: FileStorage(directory: storage.appendingPathComponent(name, isDirectory: true)),
                transport: URLSessionTransport(),
                backoffJitter: { 0 }
            )
        )
    }

    /// A raw admin call with the seed's owner credential.
    @discardableResult
    func adminCall(_ method: String, _ path: String, _ json: Any? = nil) throws -> TestResponse {
        let client = server.client()
        defer { client.close() }
        return try client.json(method, path, json, headers: [("Authorization", "Bearer owner")])
    }

    /// Moves the server's clock forward (`--test-clock`).
    func advanceServerClock(by seconds: Int) throws {
        let answer = try adminCall("POST", "/emulator/v1/clock", ["advanceSeconds": seconds])
        guard answer.status == 200 else { throw TestHTTPError("the clock answered \(answer.status) \(answer.text)") }
    }

    /// A fresh address no other test uses.
    static func email(_ label: String) -> String { "\(label)-\(UUID().uuidString.prefix(8).lowercased())@example.com" }
}

/// Token surgery for the refusal tests.
enum Tokens {
    /// The token with its payload's member `name` set to `value` and the signature kept.
    static func withClaim(_ token: String, _ name: String, _ value: Any) throws -> String {
        var parts = token.split(separator: ".").map(String.init)
        var claims = try JSONSerialization.jsonObject(with: decode(parts[1])) as! [String: Any]
        claims[name] = value
        parts[1] = encode(try JSONSerialization.data(withJSONObject: claims))
        return parts.joined(separator: ".")
    }

    /// The token with its header's `kid` replaced and the signature kept.
    static func withKeyID(_ token: String, _ keyID: String) throws -> String {
        var parts = token.split(separator: ".").map(String.init)
        var header = try JSONSerialization.jsonObject(with: decode(parts[0])) as! [String: Any]
        header["kid"] = keyID
        parts[0] = encode(try JSONSerialization.data(withJSONObject: header))
        return parts.joined(separator: ".")
    }

    /// The header's `kid`.
    static func keyID(_ token: String) throws -> String? {
        let header = try JSONSerialization.jsonObject(with: decode(String(token.split(separator: ".")[0])))
        return (header as? [String: Any])?["kid"] as? String
    }

    static func decode(_ part: String) -> Data {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text) ?? Data()
    }

    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
