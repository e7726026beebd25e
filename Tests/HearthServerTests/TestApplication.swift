import Foundation
import HearthBase
import HearthCore
import HearthStore
import Synchronization

@testable import HearthHTTP
@testable import HearthServer

#if canImport(Glibc)
    import Glibc
#endif

/// A whole Hearth application for one test, in-process: a fresh SQLite store in a temporary
/// directory, a manual clock, the development seed, and the router every route is registered
/// on. Requests go straight to the router (no process, no socket); a deferred answer is
/// awaited here, as the server would await it.
final class TestApplication: @unchecked Sendable {
    let directory: URL
    let store: SQLiteStore
    let clock: ManualClock
    let application: HearthApplication
    let router: Router
    /// Where the application's log lines go (read them with ``logText()``).
    private let logPath: String
    private let logWriter: LogWriter
    private let logDescriptor: Int32

    /// The seed project (`demo-project`, API key `demo-api-key`, admin credential `owner`).
    static let projectID = DevelopmentSeed.projectID
    static let apiKey = DevelopmentSeed.apiKey
    static let adminAuthorization = "Bearer \(DevelopmentSeed.adminCredential)"

    /// 2026-01-01T00:00:00Z, so tests read whole, known instants.
    static let startMilliseconds: Int64 = 1_767_225_600_000

    init(publicURL: String = "http://127.0.0.1:9099", background: Bool = false) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        logPath = directory.appendingPathComponent("log.jsonl").path
        logDescriptor = open(logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        logWriter = LogWriter(fileDescriptor: logDescriptor)
        clock = ManualClock(milliseconds: Self.startMilliseconds)
        store = try SQLiteStore(SQLiteStore.Configuration(path: directory.appendingPathComponent("hearth.db").path))
        let log = Log(writer: logWriter, minimumLevel: .debug, clock: clock)
        application = try HearthApplication(
            store: store,
            clock: clock,
            log: log,
            masterKey: MasterKey.generate(),
            publicURL: publicURL,
            developmentProjectID: DevelopmentSeed.projectID
        )
        _ = try application.projects.save(DevelopmentSeed.project)
        if background { application.startBackgroundWork() }
        router = application.makeRouter()
    }

    deinit {
        application.stopBackgroundWork()
        store.close()
        logWriter.flush()
        close(logDescriptor)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Everything logged so far.
    func logText() -> String {
        logWriter.flush()
        return (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    // MARK: - Requests

    /// The router's answer to `request`, deferred answers awaited (with the router's changes
    /// applied, as the server applies them).
    func respond(_ request: Request) -> Response {
        let response = router.respond(to: request)
        guard let deferral = response.deferral else { return response }
        let answer = Mutex<Response?>(nil)
        let done = DispatchSemaphore(value: 0)
        deferral.start(
            ResponsePromise { delivered in
                answer.withLock { $0 = delivered }
                done.signal()
            }
        )
        done.wait()
        var delivered = answer.withLock { $0! }
        delivered.deferral = nil
        for transform in deferral.transforms { transform(&delivered) }
        return delivered
    }

    /// Sends a request and reads its answer's JSON.
    @discardableResult
    func send(
        _ method: HTTPMethod,
        _ target: String,
        json body: JSONValue? = nil,
        rawBody: [UInt8]? = nil,
        headers: [(String, String)] = [],
        remoteAddress: String = "127.0.0.1"
    ) -> TestAnswer {
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.add(name, value) }
        if body != nil { fields.add("Content-Type", "application/json") }
        let request = Request(
            method: method,
            target: target,
            headers: fields,
            body: rawBody ?? body?.serialized() ?? [],
            remoteAddress: remoteAddress
        )
        return TestAnswer(respond(request))
    }

    /// A client call of the seed project: `POST <target>?key=demo-api-key` with a JSON body.
    @discardableResult
    func client(
        _ target: String,
        _ body: JSONValue,
        headers: [(String, String)] = [],
        remoteAddress: String = "127.0.0.1"
    ) -> TestAnswer {
        let separator = target.contains("?") ? "&" : "?"
        return send(
            .post,
            target + separator + "key=\(Self.apiKey)",
            json: body,
            headers: headers,
            remoteAddress: remoteAddress
        )
    }

    /// An admin call of the seed project (`Authorization: Bearer owner`).
    @discardableResult
    func admin(_ method: HTTPMethod = .post, _ target: String, _ body: JSONValue? = nil) -> TestAnswer {
        send(method, target, json: body, headers: [("Authorization", Self.adminAuthorization)])
    }

    // MARK: - Common steps

    /// Signs up `email` with `password` and answers the sign-up's JSON (idToken, refreshToken, localId).
    func signUp(_ email: String, password: String = "correct horse battery") throws -> JSONValue {
        let answer = client(
            "/v1/accounts:signUp",
            ["email": .string(email), "password": .string(password), "returnSecureToken": true]
        )
        guard answer.status == 200 else { throw TestFailure("sign-up answered \(answer.status): \(answer.text)") }
        return answer.json
    }
}

/// A response, with its body read as JSON (or `null` when it is not JSON).
struct TestAnswer {
    let response: Response
    var status: Int { Int(response.status.code) }
    var text: String { String(decoding: response.body, as: UTF8.self) }
    var json: JSONValue { (try? JSONValue.parse(response.body)) ?? .null }
    /// The Google envelope's `error.message`, when the answer is an error.
    var errorMessage: String? { json["error"]?["message"]?.stringValue }
    func header(_ name: String) -> String? { response.headers[name] }

    init(_ response: Response) { self.response = response }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
