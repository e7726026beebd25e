import Dispatch
import Foundation
import HearthTestSupport
import Synchronization
import Testing

/// One node under steady load while its PostgreSQL server restarts (`pg_ctl restart -m fast`,
/// which ends every session): meanwhile requests are answered 2xx or 503 `UNAVAILABLE`, never
/// another 5xx, never left without an answer for long; the node recovers by itself, and every
/// installation it acknowledged is there afterwards.
@Suite struct PostgreSQLRestartTests {
    static let project = "restart-project"
    static let apiKey = "restart-api-key"
    static let app = "1:400000000000:web:0a1b2c3d4e5f"
    static let email = "load@example.com"
    /// The longest any request may wait for its answer, fault or not.
    static let answerBound: Duration = .seconds(10)
    /// How long the node may take to succeed again once PostgreSQL accepts connections.
    static let recoveryBound: Duration = .seconds(30)

    /// What one request of the load was and how it was answered.
    struct Answer: Sendable {
        enum Kind: String, Sendable, CaseIterable {
            case create, token, sendOobCode
        }

        let kind: Kind
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

    @Test(
        .enabled(if: TestDatabase.runsOnPostgreSQL, "restarts a PostgreSQL server of its own: the PostgreSQL pass"),
        .timeLimit(.minutes(5))
    )
    func restartingPostgreSQLUnderLoadAnswers503ThenRecoversWithEveryAcknowledgedWrite() throws {
        let cluster = try PostgreSQLCluster(ports: 55520...55529)
        // Stopped when released, so kept until the end: nothing uses it after the restart.
        defer { withExtendedLifetime(cluster) {} }
        let database = try TestDatabase(onPostgreSQLServer: cluster.url)
        let server = try HearthServerProcess(arguments: ["--config", try Self.configurationFile()], database: database)
        let setup = server.client()
        _ = try setup.signUp(Self.email, key: Self.apiKey)
        let tokenHolder = try setup.register(app: Self.app, project: Self.project, apiKey: Self.apiKey)

        let answers = Mutex<[Answer]>([])
        let acknowledged = Mutex<[(fid: String, refreshToken: String)]>([])
        let stop = Atomic<Bool>(false)
        let group = DispatchGroup()
        // Two threads of each kind: creates and sendOobCode are durable writes, token requests
        // mostly reads, all on the store's pooled connections.
        for kind in Answer.Kind.allCases + Answer.Kind.allCases {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                let client = server.client()
                while !stop.load(ordering: .relaxed) {
                    let fid = generateClientFID()
                    let sent = ContinuousClock.now
                    let answer: Answer
                    do {
                        try client.connect(timeoutSeconds: Int(Self.answerBound.components.seconds))
                        let response = try Self.send(kind, fid: fid, tokenHolder: tokenHolder, client: client)
                        answer = Answer(
                            kind: kind,
                            sent: sent,
                            answered: .now,
                            status: response.status,
                            errorStatus: response.errorStatus,
                            failure: nil
                        )
                        if kind == .create, response.status == 200,
                            let refreshToken = response.json["refreshToken"] as? String
                        {
                            acknowledged.withLock { $0.append((response.json["fid"] as? String ?? fid, refreshToken)) }
                        }
                    } catch {
                        client.close()
                        answer = Answer(
                            kind: kind,
                            sent: sent,
                            answered: .now,
                            status: nil,
                            errorStatus: nil,
                            failure: "\(error)"
                        )
                    }
                    answers.withLock { $0.append(answer) }
                }
            }
        }
        defer {
            stop.store(true, ordering: .relaxed)
            group.wait()
        }

        /// Whether every kind has succeeded `count` times with a request sent after `instant`.
        func everyKindSucceeded(_ count: Int, after instant: ContinuousClock.Instant) -> Bool {
            answers.withLock { answers in
                Answer.Kind.allCases.allSatisfy { kind in
                    answers.lazy.filter { $0.kind == kind && $0.succeeded && $0.sent >= instant }.count >= count
                }
            }
        }
        let loadStarted = ContinuousClock.now
        #expect(eventually(timeout: 30) { everyKindSucceeded(20, after: loadStarted) }, "the load never got going")

        let restartBegan = ContinuousClock.now
        try cluster.restart()
        let restartEnded = ContinuousClock.now
        let recovered = eventually(timeout: TimeInterval(Self.recoveryBound.components.seconds)) {
            everyKindSucceeded(10, after: restartEnded)
        }
        stop.store(true, ordering: .relaxed)
        group.wait()
        #expect(recovered, "not every kind of request succeeded within \(Self.recoveryBound) of the restart")
        #expect(
            server.process?.isRunning == true,
            "hearth exited:\n\(server.output.suffix(20).joined(separator: "\n"))"
        )

        let all = answers.withLock { $0 }
        let firstSuccess = all.filter { $0.succeeded && $0.sent >= restartEnded }.map(\.answered).min()
        let faultEnd = firstSuccess ?? restartEnded
        let duringFault = all.filter { $0.answered >= restartBegan && $0.sent <= faultEnd }
        let unexpected = all.filter { !$0.succeeded && !$0.isUnavailable }
        let slowest = all.map { $0.answered - $0.sent }.max() ?? .zero

        // Every installation acknowledged with 200, during the fault or not, is there: its
        // refresh token still gets a token.
        let created = acknowledged.withLock { $0 }
        let checker = server.client()
        var found = 0
        var missing: [String] = []
        for installation in created {
            let response = try Self.generateToken(
                fid: installation.fid,
                refreshToken: installation.refreshToken,
                client: checker
            )
            if response.status == 200 { found += 1 } else { missing.append("\(installation.fid): \(response.status)") }
        }

        print(
            """
            postgres restart under load: pg_ctl restart took \(restartEnded - restartBegan); \
            first success \(firstSuccess.map { "\($0 - restartEnded)" } ?? "never") after PostgreSQL was back; \
            slowest answer \(slowest)
              all answers: \(Self.counts(all))
              during the fault (answered after the restart began, sent before the first success after it): \
            \(Self.counts(duringFault))
              per kind during the fault: \
            \(Answer.Kind.allCases.map { kind in "\(kind.rawValue) \(Self.counts(duringFault.filter { $0.kind == kind }))" }.joined(separator: "; "))
              installations acknowledged \(created.count), found afterwards \(found)
            """
        )
        #expect(
            unexpected.isEmpty,
            "answers other than 2xx and 503 UNAVAILABLE: \(Self.counts(unexpected)); first: \(unexpected.first.map { "\($0.kind) \($0.outcome) \($0.failure ?? "")" } ?? "")"
        )
        #expect(slowest <= Self.answerBound, "an answer took \(slowest)")
        #expect(firstSuccess != nil)
        #expect(!created.isEmpty)
        #expect(found == created.count, "acknowledged but not found: \(missing.prefix(10))")
    }

    /// "200: 512, 503 UNAVAILABLE: 14", by outcome.
    static func counts(_ answers: [Answer]) -> String {
        let counted = Dictionary(grouping: answers, by: \.outcome).mapValues(\.count)
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
                "/v1/projects/\(project)/installations",
                ["fid": fid, "appId": app, "authVersion": "FIS_v2", "sdkVersion": "w:0.6.24"],
                headers: [("x-goog-api-key", apiKey)]
            )
        case .token:
            try generateToken(fid: tokenHolder.fid, refreshToken: tokenHolder.refreshToken, client: client)
        case .sendOobCode:
            try client.call("accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": email], key: apiKey)
        }
    }

    static func generateToken(fid: String, refreshToken: String, client: TestHTTPClient) throws -> TestResponse {
        try client.json(
            "POST",
            "/v1/projects/\(project)/installations/\(fid)/authTokens:generate",
            ["installation": ["sdkVersion": "w:0.6.24"]],
            headers: [("x-goog-api-key", apiKey), ("Authorization", "FIS_v2 \(refreshToken)")]
        )
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
