import Foundation
import HearthTestSupport
import Testing

/// The HTTP behaviour of the real `hearth` binary: keep-alive, errors in the envelope, body
/// limits, gzip bodies, aliases, start-up and graceful shutdown.
@Suite struct ServerBehaviourTests {
    @Test func healthzAnswers200AndKeepAliveReusesOneConnection() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        for _ in 0..<5 {
            let response = try client.request("GET", "/healthz")
            #expect(response.status == 200)
            #expect(response.json["ok"] as? Bool == true)
        }
        #expect(client.connectionsOpened == 1)
    }

    @Test func theHTTPThreadsAreOnePerCore() throws {
        let server = try HearthServerProcess()
        let listening = try #require(server.output.first { $0.contains("http server listening") })
        let object = try JSONSerialization.jsonObject(with: Data(listening.utf8)) as? [String: Any]
        #expect(object?["threads"] as? Int == ProcessInfo.processInfo.activeProcessorCount, "\(listening)")
    }

    @Test func anUnknownPathIs404AndAWrongMethodIs405InTheErrorEnvelope() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        let missing = try client.request("GET", "/v1/no/such/thing")
        #expect(missing.status == 404)
        #expect((missing.json["error"] as? [String: Any])?["code"] as? Int == 404)
        #expect(missing.errorMessage != nil)
        let wrongMethod = try client.request("DELETE", "/healthz")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["allow"]?.contains("GET") == true)
        #expect((wrongMethod.json["error"] as? [String: Any])?["code"] as? Int == 405)
        #expect(client.connectionsOpened == 1)
    }

    @Test func malformedJSONIs400() throws {
        let server = try HearthServerProcess()
        let response = try server.client().request(
            "POST",
            "/hearth/v1/projects/demo-project/signingKeys:rotate",
            headers: [("Authorization", "Bearer owner"), ("Content-Type", "application/json")],
            body: Array(#"{"purpose": "installations""#.utf8)
        )
        #expect(response.status == 400)
        #expect(response.errorStatus == "INVALID_ARGUMENT")
    }

    @Test func anOversizedBodyIs413() throws {
        let server = try HearthServerProcess(arguments: ["--max-body-bytes", "2048"])
        let response = try server.client().request(
            "POST",
            "/hearth/v1/projects/demo-project/signingKeys:rotate",
            headers: [("Authorization", "Bearer owner"), ("Content-Type", "application/json")],
            body: Array(repeating: UInt8(ascii: " "), count: 4096)
        )
        #expect(response.status == 413)
        #expect((response.json["error"] as? [String: Any])?["code"] as? Int == 413)
    }

    @Test func aGzipBodyIsAccepted() throws {
        let server = try HearthServerProcess()
        let body = try gzip(Array(#"{"purpose":"installations"}"#.utf8))
        let response = try server.client().request(
            "POST",
            "/hearth/v1/projects/demo-project/signingKeys:rotate",
            headers: [
                ("Authorization", "Bearer owner"), ("Content-Type", "application/json"), ("Content-Encoding", "gzip"),
            ],
            body: body
        )
        #expect(response.status == 200)
        #expect(response.json["purpose"] as? String == "installations")
    }

    @Test func aHostPrefixedAliasReachesTheSameHandler() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        let plain = try client.request("GET", "/v1/projects/demo-project/jwks")
        let aliased = try client.request("GET", "/identitytoolkit.googleapis.com/v1/projects/demo-project/jwks/")
        #expect(plain.status == 200)
        #expect(aliased.status == 200)
        #expect(plain.body == aliased.body)
        #expect((plain.json["keys"] as? [Any])?.count == 2)
    }

    /// The store opens before the port is bound, so a start held up by its database takes the
    /// port only once the database answers (the 503 phase after it is tested in-process:
    /// StartupResponderTests).
    @Test(
        .enabled(if: !TestDatabase.runsOnPostgreSQL, "holds the SQLite file's write lock from another process")
    )
    func aStartWaitingOnItsDatabaseTakesThePortOnlyOnceItOpens() throws {
        let server = try HearthServerProcess()
        let database = server.dataDirectory.appendingPathComponent("hearth.db").path
        server.stop()
        // Another process holds the database's write lock, so start-up waits on it.
        let locker = Process()
        locker.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        locker.arguments = [
            "python3", "-c",
            """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute('BEGIN EXCLUSIVE')
            print('locked', flush=True)
            time.sleep(2.5)
            c.execute('COMMIT')
            """,
            database,
        ]
        let pipe = Pipe()
        locker.standardOutput = pipe
        try locker.run()
        _ = pipe.fileHandleForReading.availableData
        let locked = ContinuousClock.now
        try server.start(port: 0, waitUntilReady: false)
        #expect(ContinuousClock.now - locked >= .seconds(2), "the port was reported while the database was locked")
        locker.waitUntilExit()
        #expect(server.waitForOutput("hearth is ready"))
        #expect(try server.client().request("GET", "/healthz").status == 200)
    }

    @Test func gracefulShutdownFinishesAnInFlightRequest() throws {
        let server = try HearthServerProcess()
        let client = server.client()
        let body = Array(#"{"purpose":"installations"}"#.utf8)
        // Headers and half the body are sent; the rest follows after SIGTERM.
        let head =
            "POST /hearth/v1/projects/demo-project/signingKeys:rotate HTTP/1.1\r\nHost: x\r\n"
            + "Authorization: Bearer owner\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        try client.sendRaw(Array(head.utf8) + body[..<10])
        Thread.sleep(forTimeInterval: 0.3)
        kill(server.process!.processIdentifier, SIGTERM)
        #expect(server.waitForOutput("shutting down"))
        // New connections are refused while the old one is finished.
        let newcomer = TestHTTPClient(port: server.port)
        #expect(throws: (any Error).self) { try newcomer.request("GET", "/healthz") }
        try client.sendRaw(Array(body[10...]))
        let response = try client.readResponse()
        #expect(response.status == 200)
        server.process!.waitUntilExit()
        #expect(server.process!.terminationStatus == 0)
    }
}

/// Gzip-compresses with the system's `gzip`.
func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["gzip", "-c"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(bytes))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return [UInt8](data)
}
