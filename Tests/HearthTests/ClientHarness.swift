import Foundation
import HearthTestSupport
import HearthTransport
import Synchronization

@testable import Hearth

/// The development seed's values the client tests use.
enum Seed {
    static let projectID = "demo-project"
    static let projectNumber = "100000000000"
    static let apiKey = "demo-api-key"
    static let iosAppID = "1:100000000000:ios:0a1b2c3d4e5f6789"
    static let adminHeader = ("Authorization", "Bearer owner")
}

/// A clock the test moves by hand.
final class ManualTime: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    var now: Date { current.withLock { $0 } }

    func advance(by interval: TimeInterval) { current.withLock { $0 += interval } }

    /// Puts the clock at the real time: tokens the real server issues are then current.
    func setToSystemTime() { current.withLock { $0 = Date() } }
}

/// A transport that sends through URLSession and keeps every request it sent.
final class RecordingTransport: HTTPTransport {
    private let inner = URLSessionTransport()
    private let sent = Mutex<[HTTPRequest]>([])

    var requests: [HTTPRequest] { sent.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        sent.withLock { $0.append(request) }
        return try await inner.send(request)
    }

    /// How many requests went to a path ending in `suffix`.
    func count(pathSuffix suffix: String) -> Int {
        requests.filter { $0.url.path.hasSuffix(suffix) }.count
    }
}

/// A real `hearth` server with the development seed, a clock, and a storage directory, from
/// which a test makes client apps.
final class ClientHarness: @unchecked Sendable {
    /// Nil for tests whose transport stands in for Hearth.
    private let process: HearthServerProcess?
    let storageDirectory: URL
    let time = ManualTime()
    let transport = RecordingTransport()

    init(startingServer: Bool = true) throws {
        process = startingServer ? try HearthServerProcess() : nil
        storageDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-client-\(UUID().uuidString)", isDirectory: true)
        time.setToSystemTime()
    }

    deinit { try? FileManager.default.removeItem(at: storageDirectory) }

    var server: HearthServerProcess {
        guard let process else { preconditionFailure("This harness runs no server.") }
        return process
    }

    var baseURL: URL { URL(string: process?.baseURL ?? "http://127.0.0.1:9")! }

    /// The options of the seed's iOS app on this server.
    var options: HearthOptions {
        let options = HearthOptions(googleAppID: Seed.iosAppID, gcmSenderID: Seed.projectNumber)
        options.apiKey = Seed.apiKey
        options.projectID = Seed.projectID
        options.baseURL = baseURL
        return options
    }

    /// An app named `name` on this harness's clock, storage and transport, reaching Hearth at
    /// `baseURL` (the harness's server by default). Two apps of the same name share their
    /// persisted entries, as two launches of one program do. `backoffJitter` is the extra
    /// back-off wait the app draws.
    func makeApp(
        name: String = "app-\(UUID().uuidString)",
        transport: (any HTTPTransport)? = nil,
        baseURL: URL? = nil,
        backoffJitter: TimeInterval = 0
    ) -> HearthApp {
        let time = time
        let options = options
        if let baseURL { options.baseURL = baseURL }
        return HearthApp(
            name: name,
            options: options,
            services: HearthServices(
                now: { time.now },
                storage: FileStorage(directory: storageDirectory),
                transport: transport ?? self.transport,
                backoffJitter: { backoffJitter }
            )
        )
    }

    /// An admin call with the seed's owner credential.
    @discardableResult
    func admin(_ method: String, _ path: String, _ json: Any? = nil) throws -> TestResponse {
        let client = server.client()
        defer { client.close() }
        return try client.json(method, path, json, headers: [Seed.adminHeader])
    }

    /// The installations the server holds for the seed project.
    func serverInstallations() throws -> [[String: Any]] {
        let response = try admin("GET", "/hearth/v1/projects/\(Seed.projectID)/installations")
        guard response.status == 200 else { throw TestHTTPError("listing answered \(response.status)") }
        return response.json["installations"] as? [[String: Any]] ?? []
    }

    /// The usable codes of the development outbox, oldest first.
    func outbox() throws -> [[String: Any]] {
        let client = server.client()
        defer { client.close() }
        let response = try client.request("GET", "/emulator/v1/projects/\(Seed.projectID)/oobCodes")
        guard response.status == 200 else { throw TestHTTPError("oobCodes answered \(response.status)") }
        return response.json["oobCodes"] as? [[String: Any]] ?? []
    }

    /// The newest outbox entry of `requestType` for `email`.
    func latestCode(_ requestType: String, for email: String) throws -> (code: String, link: String) {
        let match = try outbox().last {
            $0["requestType"] as? String == requestType
                && [$0["email"], $0["newEmail"]].contains { ($0 as? String)?.lowercased() == email.lowercased() }
        }
        guard let match, let code = match["oobCode"] as? String, let link = match["oobLink"] as? String else {
            throw TestHTTPError("no \(requestType) code for \(email) in \(try outbox())")
        }
        return (code, link)
    }
}
