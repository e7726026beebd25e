import Dispatch
import Foundation
import HearthCrypto
import HearthTestSupport
import Synchronization
import Testing

/// Nodes under steady load while something fails: their PostgreSQL server restarts
/// (`pg_ctl restart -m fast`, which ends every session), pauses (every server process
/// `SIGSTOP`ped for 10 s, then continued), or one of two nodes is `kill -9`ed. Meanwhile
/// requests are answered 2xx or 503 `UNAVAILABLE`, never another 5xx, never left without an
/// answer past a bound; `/healthz` says when a node's database does not answer; the nodes
/// recover by themselves; and every installation acknowledged is there afterwards.
@Suite(
    .serialized,
    .enabled(if: TestDatabase.runsOnPostgreSQL, "faults of a PostgreSQL server of the test's own: the PostgreSQL pass")
)
struct PostgreSQLFaultTests {
    static let project = "restart-project"
    static let apiKey = "restart-api-key"
    static let app = "1:400000000000:web:0a1b2c3d4e5f"
    static let email = "load@example.com"
    /// How long the node may take to succeed again once PostgreSQL is back.
    static let recoveryBound: Duration = .seconds(30)

    /// A PostgreSQL server of the test's own, on the first free port of `ports`, and a node on
    /// it serving the project under load. The cluster is stopped when released, so the caller
    /// keeps it until the end.
    static func nodeOnAServerOfItsOwn(ports: ClosedRange<Int>) throws -> (PostgreSQLCluster, HearthServerProcess) {
        let cluster = try PostgreSQLCluster(ports: ports)
        let server = try HearthServerProcess(
            arguments: ["--config", try configurationFile()],
            database: try TestDatabase(onPostgreSQLServer: cluster.url)
        )
        return (cluster, server)
    }

    @Test(.timeLimit(.minutes(5)))
    func restartingPostgreSQLUnderLoadAnswers503ThenRecoversWithEveryAcknowledgedWrite() throws {
        let (cluster, server) = try Self.nodeOnAServerOfItsOwn(ports: 55520...55529)
        defer { withExtendedLifetime(cluster) {} }
        let load = try FaultLoad(nodes: [server])
        try load.run(fault: "postgres restart", answerBound: .seconds(10)) { try cluster.restart() }
    }

    @Test(.timeLimit(.minutes(5)))
    func pausingPostgreSQLUnderLoadAnswers503AndDegradedHealthThenRecoversWithEveryAcknowledgedWrite() throws {
        let (cluster, server) = try Self.nodeOnAServerOfItsOwn(ports: 55530...55539)
        defer { withExtendedLifetime(cluster) {} }
        let load = try FaultLoad(nodes: [server])
        // Requests in flight when the server stops wait for it (each statement at most the
        // store's 12 s answer timeout); the probe finds it silent within ~5 s, and from then
        // on requests get 503 at once.
        let report = try load.run(fault: "postgres paused 10 s", answerBound: .seconds(14)) {
            // As on a busy node, a read connection open for every handler thread.
            _ = load.requests(.token, 16, atOnceOn: 0)
            try cluster.pause()
            defer { try? cluster.resume() }
            // More reads than the node has handler threads: those given an open connection
            // wait for the server, those opening one give up after the connect timeout (5 s).
            let waiting = DispatchGroup()
            DispatchQueue.global().async(group: waiting) { _ = load.requests(.token, 16, atOnceOn: 0) }
            #expect(
                eventually(timeout: 9.5) { load.health.withLock { $0.contains { $0.degraded } } },
                "/healthz never said degraded while the database was paused"
            )
            // From then on a request is answered at once, without waiting for a handler thread
            // to come free: sixteen sent at once.
            let atOnce = load.requests(.token, 16, atOnceOn: 0)
            let slowest = atOnce.map { $0.answered - $0.sent }.max() ?? .zero
            print(
                "postgres paused: 16 token requests sent at once while degraded: \(FaultLoad.counts(atOnce)); slowest \(slowest)"
            )
            #expect(atOnce.allSatisfy { $0.isUnavailable }, "\(FaultLoad.counts(atOnce))")
            #expect(slowest < .seconds(1), "a token request sent while degraded waited \(slowest)")
            Thread.sleep(until: Date().addingTimeInterval(10 - load.secondsSinceFaultBegan))
            try cluster.resume()
            waiting.wait()
        }
        #expect(report.healthAfterRecovery == 200, "/healthz after recovery answered \(report.healthAfterRecovery)")
        // The HTTP threads never wait for the database (the handler pool does), and these
        // answers come from memory: health, and the keys verifiers fetch.
        #expect(
            report.slowestHealthDuringFault <= .milliseconds(100),
            "a /healthz or JWKS took \(report.slowestHealthDuringFault) while the database was paused"
        )
    }

    @Test(.timeLimit(.minutes(5)))
    func killingOneOfTwoNodesUnderLoadLosesNoAcknowledgedWrite() throws {
        let database = try TestDatabase()
        let key = ["HEARTH_MASTER_KEY": Base64URL.encode(SecureRandom.bytes(count: 32))]
        let arguments = ["--config", try Self.configurationFile()]
        let a = try HearthServerProcess(arguments: arguments, environment: key, database: database)
        let b = try HearthServerProcess(arguments: arguments, environment: key, database: database)
        let load = try FaultLoad(nodes: [a, b])
        // A load balancer would send the killed node's share to the other; here its threads
        // keep failing to connect until it is back, and the other node's must not notice.
        try load.run(fault: "node killed", answerBound: .seconds(10), unanswered: { $0.node == 0 }) {
            a.kill()
            let killed = ContinuousClock.now
            #expect(
                eventually(timeout: 10) { load.succeeded(50, on: 1, after: killed) },
                "the surviving node stopped succeeding"
            )
            try a.restart()
        }
    }

    /// The project under load, its send limits out of the way (one address, one client).
    static func configurationFile() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-restart-project.json")
        let document = """
            {"projects": [{"projectId": "\(project)", "projectNumber": "400000000000", "apiKeys": ["\(apiKey)"],
              "apps": [{"appId": "\(app)", "platform": "web"}], "authorizedDomains": ["localhost"],
              "settings": {"emailsPerRecipientPerHour": 1000000000, "emailsPerClientAddressPerHour": 1000000000}}]}
            """
        try Data(document.utf8).write(to: path, options: .atomic)
        return path.path
    }
}

/// Steady load on one or more nodes — two threads of each kind of request per node, each on a
/// kept-alive connection of its own — and two threads per node asking `/healthz` and the JWKS
/// every 20 ms on connections of their own; `run` injects a fault into it and checks and prints what happened.
final class FaultLoad: Sendable {
    typealias Tests = PostgreSQLFaultTests

    /// What one request of the load was and how it was answered.
    struct Answer: Sendable {
        enum Kind: String, Sendable, CaseIterable {
            case create, token, sendOobCode
        }

        let kind: Kind
        /// The index of the node it went to.
        let node: Int
        let sent: ContinuousClock.Instant
        let answered: ContinuousClock.Instant
        /// The HTTP status; `nil` when no answer came (`failure` says why).
        let status: Int?
        /// `error.status` of an error envelope.
        let errorStatus: String?
        let failure: String?

        var succeeded: Bool { status.map { (200..<300).contains($0) } ?? false }
        var isUnavailable: Bool { status == 503 && errorStatus == "UNAVAILABLE" }
        var outcome: String { status.map { "\($0)\(errorStatus.map { " \($0)" } ?? "")" } ?? "no answer" }
    }

    /// One answer of a route that needs no database.
    struct HealthCheck: Sendable {
        let node: Int
        let path: String
        let sent: ContinuousClock.Instant
        let took: Duration
        let status: Int?
        let degraded: Bool
    }

    /// What `run` found, for checks a test adds.
    struct Report {
        /// `/healthz`'s status on every node once they recovered (the worst one).
        var healthAfterRecovery: Int
        /// The longest a `/healthz` or JWKS asked during the fault waited for its answer.
        var slowestHealthDuringFault: Duration
    }

    private let nodes: [HearthServerProcess]
    private let tokenHolder: Registered
    let answers = Mutex<[Answer]>([])
    let health = Mutex<[HealthCheck]>([])
    private let acknowledged = Mutex<[(fid: String, refreshToken: String)]>([])
    private let stopping = Atomic<Bool>(false)
    private let group = DispatchGroup()
    private let faultBegan = Mutex<ContinuousClock.Instant?>(nil)

    init(nodes: [HearthServerProcess]) throws {
        self.nodes = nodes
        let setup = nodes[0].client()
        _ = try setup.signUp(Tests.email, key: Tests.apiKey)
        tokenHolder = try setup.register(app: Tests.app, project: Tests.project, apiKey: Tests.apiKey)
    }

    deinit { stop() }

    var secondsSinceFaultBegan: TimeInterval {
        guard let began = faultBegan.withLock({ $0 }) else { return 0 }
        let elapsed = ContinuousClock.now - began
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Whether node `node` has succeeded `count` times with requests sent after `instant`.
    func succeeded(_ count: Int, on node: Int, after instant: ContinuousClock.Instant) -> Bool {
        answers.withLock { $0.lazy.filter { $0.node == node && $0.succeeded && $0.sent >= instant }.count >= count }
    }

    /// Starts the load, waits for it to get going, runs `fault`, waits for every kind of
    /// request to succeed on every node again, then checks: every answer is 2xx or 503
    /// `UNAVAILABLE` (or, where `unanswered` allows, none at all), none slower than
    /// `answerBound`, and every installation acknowledged is found. Prints the counts.
    @discardableResult
    func run(
        fault name: String,
        answerBound: Duration,
        unanswered: @escaping (Answer) -> Bool = { _ in false },
        _ fault: () throws -> Void
    ) throws -> Report {
        start(answerBound: answerBound)
        let loadStarted = ContinuousClock.now
        #expect(eventually(timeout: 30) { everyKindSucceeded(20, after: loadStarted) }, "the load never got going")

        let began = ContinuousClock.now
        faultBegan.withLock { $0 = began }
        try fault()
        let ended = ContinuousClock.now
        let recovered = eventually(timeout: TimeInterval(Tests.recoveryBound.components.seconds)) {
            everyKindSucceeded(10, after: ended)
        }
        stop()
        #expect(recovered, "not every kind of request succeeded on every node within \(Tests.recoveryBound)")
        for node in nodes {
            #expect(
                node.process?.isRunning == true,
                "hearth exited:\n\(node.output.suffix(20).joined(separator: "\n"))"
            )
        }

        let all = answers.withLock { $0 }
        let firstSuccess = all.filter { $0.succeeded && $0.sent >= ended }.map(\.answered).min()
        let faultEnd = firstSuccess ?? ended
        let duringFault = all.filter { $0.answered >= began && $0.sent <= faultEnd }
        let unexpected = all.filter { !$0.succeeded && !$0.isUnavailable && !($0.status == nil && unanswered($0)) }
        let slowest = all.filter { $0.status != nil }.map { $0.answered - $0.sent }.max() ?? .zero
        let checks = health.withLock { $0 }
        let checksDuringFault = checks.filter { $0.sent >= began && $0.sent <= faultEnd }
        let slowestHealth = checks.map(\.took).max() ?? .zero
        var healthAfterRecovery = 200
        for node in nodes {
            healthAfterRecovery = max(healthAfterRecovery, (try? node.client().request("GET", "/healthz").status) ?? 0)
        }

        // Every installation acknowledged with 200, during the fault or not, is there: its
        // refresh token still gets a token, through every node.
        let created = acknowledged.withLock { $0 }
        var found = 0
        var missing: [String] = []
        for (index, installation) in created.enumerated() {
            let response = try Self.generateToken(
                fid: installation.fid,
                refreshToken: installation.refreshToken,
                client: nodes[index % nodes.count].client()
            )
            if response.status == 200 { found += 1 } else { missing.append("\(installation.fid): \(response.status)") }
        }

        print(
            """
            \(name) under load: the fault took \(ended - began); first success \
            \(firstSuccess.map { "\($0 - ended)" } ?? "never") after it ended; slowest answer \(slowest)
              all answers: \(Self.counts(all))
              during the fault (answered after it began, sent before the first success after it): \
            \(Self.counts(duringFault))
              per kind during the fault: \
            \(Answer.Kind.allCases.map { kind in "\(kind.rawValue) \(Self.counts(duringFault.filter { $0.kind == kind }))" }.joined(separator: "; "))
              /healthz and JWKS during the fault: \(Self.healthCounts(checksDuringFault)); slowest \(slowestHealth)
              installations acknowledged \(created.count), found afterwards \(found)
            """
        )
        #expect(
            unexpected.isEmpty,
            "answers other than 2xx and 503 UNAVAILABLE: \(Self.counts(unexpected)); first: \(unexpected.first.map { "\($0.kind) \($0.outcome) \($0.failure ?? "")" } ?? "")"
        )
        #expect(slowest <= answerBound, "an answer took \(slowest)")
        #expect(firstSuccess != nil)
        #expect(!created.isEmpty)
        #expect(found == created.count, "acknowledged but not found: \(missing.prefix(10))")
        return Report(
            healthAfterRecovery: healthAfterRecovery,
            slowestHealthDuringFault: checksDuringFault.map(\.took).max() ?? .zero
        )
    }

    private func everyKindSucceeded(_ count: Int, after instant: ContinuousClock.Instant) -> Bool {
        answers.withLock { answers in
            nodes.indices.allSatisfy { node in
                Answer.Kind.allCases.allSatisfy { kind in
                    answers.lazy.filter { $0.node == node && $0.kind == kind && $0.succeeded && $0.sent >= instant }
                        .count >= count
                }
            }
        }
    }

    private func start(answerBound: Duration) {
        let timeout = Int(answerBound.components.seconds) + 5
        for (node, server) in nodes.enumerated() {
            // Two threads of each kind: creates and sendOobCode are durable writes, token
            // requests mostly reads.
            for kind in Answer.Kind.allCases + Answer.Kind.allCases {
                loop { [self] client in
                    if ask(kind, node: node, client: client, timeoutSeconds: timeout).status == nil {
                        client.close()
                        // A node that is down refuses at once: don't spin.
                        usleep(20_000)
                    }
                } client: {
                    server.client()
                }
            }
            // What needs no database: `/healthz` and, from the keys in memory, the project's JWKS.
            for path in ["/healthz", "/v1/projects/\(Tests.project)/jwks"] {
                loop { [self] client in
                    let sent = ContinuousClock.now
                    let response = try? { () throws -> TestResponse in
                        try client.connect(timeoutSeconds: timeout)
                        return try client.request("GET", path)
                    }()
                    if response == nil { client.close() }
                    health.withLock {
                        $0.append(
                            HealthCheck(
                                node: node,
                                path: path,
                                sent: sent,
                                took: .now - sent,
                                status: response?.status,
                                degraded: response?.text.contains("degraded") == true
                            )
                        )
                    }
                    usleep(20_000)
                } client: {
                    server.client()
                }
            }
        }
    }

    /// Runs `body` with a client of its own on a thread of its own, until stopped.
    private func loop(_ body: @escaping @Sendable (TestHTTPClient) -> Void, client: @escaping () -> TestHTTPClient) {
        let client = UncheckedClient(client())
        group.enter()
        // A thread each: dispatch's pool may not grow past the cores for threads blocked on sockets.
        Thread { [self] in
            defer { group.leave() }
            while !stopping.load(ordering: .relaxed) { body(client.client) }
        }.start()
    }

    func stop() {
        stopping.store(true, ordering: .relaxed)
        group.wait()
    }

    /// "200: 512, 503 UNAVAILABLE: 14", by outcome.
    static func counts(_ answers: [Answer]) -> String {
        tally(answers.map(\.outcome))
    }

    static func healthCounts(_ checks: [HealthCheck]) -> String {
        tally(
            checks.map { check in
                "\(check.path.hasSuffix("jwks") ? "jwks" : "healthz") "
                    + (check.status.map { "\($0)\(check.degraded ? " degraded" : "")" } ?? "no answer")
            }
        )
    }

    private static func tally(_ outcomes: [String]) -> String {
        let counted = Dictionary(grouping: outcomes, by: { $0 }).mapValues(\.count)
        guard !counted.isEmpty else { return "none" }
        return counted.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }

    static func send(
        _ kind: Answer.Kind,
        fid: String,
        tokenHolder: Registered,
        client: TestHTTPClient
    ) throws -> TestResponse {
        switch kind {
        case .create:
            try client.json(
                "POST",
                "/v1/projects/\(Tests.project)/installations",
                ["fid": fid, "appId": Tests.app, "authVersion": "FIS_v2", "sdkVersion": "w:0.6.24"],
                headers: [("x-goog-api-key", Tests.apiKey)]
            )
        case .token:
            try generateToken(fid: tokenHolder.fid, refreshToken: tokenHolder.refreshToken, client: client)
        case .sendOobCode:
            try client.call(
                "accounts:sendOobCode",
                ["requestType": "PASSWORD_RESET", "email": Tests.email],
                key: Tests.apiKey
            )
        }
    }

    /// Sends `count` requests of `kind` to node `node` at once, each on a connection and a
    /// thread of its own, and answers how each went (recorded with the load's answers).
    func requests(_ kind: Answer.Kind, _ count: Int, atOnceOn node: Int) -> [Answer] {
        let answers = Mutex<[Answer]>([])
        let group = DispatchGroup()
        for _ in 0..<count {
            group.enter()
            let client = UncheckedClient(nodes[node].client())
            Thread { [self] in
                defer { group.leave() }
                let answer = ask(kind, node: node, client: client.client, timeoutSeconds: 20)
                answers.withLock { $0.append(answer) }
            }.start()
        }
        group.wait()
        return answers.withLock { $0 }
    }

    /// Sends one request of `kind` to node `node`, connecting first if need be, and records
    /// how it was answered and, for a create, the installation acknowledged.
    @discardableResult
    private func ask(_ kind: Answer.Kind, node: Int, client: TestHTTPClient, timeoutSeconds: Int) -> Answer {
        let fid = generateClientFID()
        let sent = ContinuousClock.now
        let outcome = Result {
            try client.connect(timeoutSeconds: timeoutSeconds)
            return try Self.send(kind, fid: fid, tokenHolder: tokenHolder, client: client)
        }
        let response = try? outcome.get()
        let answer = Answer(
            kind: kind,
            node: node,
            sent: sent,
            answered: .now,
            status: response?.status,
            errorStatus: response?.errorStatus,
            failure: response == nil ? "\(outcome)" : nil
        )
        answers.withLock { $0.append(answer) }
        if let response, kind == .create, response.status == 200,
            let refreshToken = response.json["refreshToken"] as? String
        {
            acknowledged.withLock { $0.append((response.json["fid"] as? String ?? fid, refreshToken)) }
        }
        return answer
    }

    static func generateToken(fid: String, refreshToken: String, client: TestHTTPClient) throws -> TestResponse {
        try client.json(
            "POST",
            "/v1/projects/\(Tests.project)/installations/\(fid)/authTokens:generate",
            ["installation": ["sdkVersion": "w:0.6.24"]],
            headers: [("x-goog-api-key", Tests.apiKey), ("Authorization", "FIS_v2 \(refreshToken)")]
        )
    }
}

/// A test client used by one load thread only.
private struct UncheckedClient: @unchecked Sendable {
    let client: TestHTTPClient
    init(_ client: TestHTTPClient) { self.client = client }
}
