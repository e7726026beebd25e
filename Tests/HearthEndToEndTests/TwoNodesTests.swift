import Dispatch
import Foundation
import HearthCrypto
import HearthTestSupport
import Synchronization
import Testing

/// Two `hearth serve` nodes on one PostgreSQL database, with the cluster's one master key.
@Suite(.enabled(if: TestDatabase.runsOnPostgreSQL, "nodes share a database on PostgreSQL"))
struct TwoNodesTests {
    /// Two nodes on one fresh database with one master key, each started with `arguments`.
    static func nodes(_ arguments: [String] = []) throws -> (a: HearthServerProcess, b: HearthServerProcess) {
        let database = try TestDatabase()
        let key = ["HEARTH_MASTER_KEY": Base64URL.encode(SecureRandom.bytes(count: 32))]
        let a = try HearthServerProcess(arguments: arguments, environment: key, database: database)
        let b = try HearthServerProcess(arguments: arguments, environment: key, database: database)
        return (a, b)
    }

    /// How long until `seen` holds, asked every 5 ms for up to 5 s; `nil` if it never did.
    static func timeUntil(_ seen: () throws -> Bool) rethrows -> Duration? {
        let clock = ContinuousClock()
        let started = clock.now
        while clock.now - started < .seconds(5) {
            if try seen() { return clock.now - started }
            usleep(5_000)
        }
        return nil
    }

    @Test("a project change made through one node is served by the other within a second")
    func aProjectChangeReachesTheOtherNodeAtOnce() throws {
        let (a, b) = try Self.nodes()
        let path = "/hearth/v1/projects/demo-project/mail/templates/VERIFY_EMAIL/en"
        let subject = "Confirm your address, node test \(UUID().uuidString.prefix(8))"

        let saved = try a.client().json("PUT", path, ["subject": subject], headers: [Seed.admin])
        #expect(saved.status == 200, "\(saved.text)")
        let other = b.client()
        let delay = try Self.timeUntil { try other.request("GET", path, headers: [Seed.admin]).text.contains(subject) }
        print("two nodes: the template saved through A served by B after \(delay.map { "\($0)" } ?? "never")")
        #expect(
            delay.map { $0 < .seconds(1) } == true,
            "B served the change \(String(describing: delay)) after A's answer"
        )
    }

    @Test("a signing key rotated through one node is published by the other within a second")
    func aRotatedKeyIsPublishedByTheOtherNodeAtOnce() throws {
        let (a, b) = try Self.nodes()
        let jwks = "/v1/projects/demo-project/jwks"
        let other = b.client()
        #expect(try other.request("GET", jwks).status == 200)
        let rotated = try a.client().admin(
            "/hearth/v1/projects/demo-project/signingKeys:rotate",
            ["purpose": "idTokens"]
        )
        #expect(rotated.status == 200, "\(rotated.text)")
        let keyID = try #require(rotated.json["keyId"] as? String)
        let delay = try Self.timeUntil { try other.request("GET", jwks).text.contains(keyID) }
        print("two nodes: the key rotated through A published by B after \(delay.map { "\($0)" } ?? "never")")
        // The reload every two seconds alone would miss this: the rotation is announced.
        #expect(
            delay.map { $0 < .seconds(1) } == true,
            "B published the key \(String(describing: delay)) after A's answer"
        )
    }

    @Test("an installation made through one node gets tokens through the other, and once deleted is refused at once")
    func anInstallationIsSharedAndItsDeletionIsSeenAtOnce() throws {
        let (a, b) = try Self.nodes()
        let clientA = a.client()
        let clientB = b.client()
        let installation = try clientA.register()

        let throughB = try clientB.generateToken(installation)
        #expect(throughB.status == 200, "\(throughB.text)")
        let token = try #require(throughB.json["token"] as? String)
        #expect(try jwtParts(token).payload["fid"] as? String == installation.fid)
        #expect(try clientA.generateToken(installation).status == 200)

        let clock = ContinuousClock()
        #expect(try clientB.deleteInstallation(installation).status == 200)
        let deleted = clock.now
        let tokenOnA = try clientA.generateToken(installation)
        let refusedAfter = clock.now - deleted
        #expect(tokenOnA.status == 404, "\(tokenOnA.text)")
        #expect(tokenOnA.errorStatus == "NOT_FOUND")
        let deletionOnA = try clientA.deleteInstallation(installation)
        #expect(deletionOnA.status == 404, "\(deletionOnA.text)")
        #expect(deletionOnA.errorStatus == "NOT_FOUND")
        print(
            "two nodes: installation made on A, token on B 200; deleted on B, A's next token answered "
                + "\(tokenOnA.status) \(tokenOnA.errorStatus ?? "") \(refusedAfter) after B's answer, "
                + "A's delete \(deletionOnA.status)"
        )
    }

    @Test("a per-recipient send limit counted on both nodes admits exactly its count")
    func aSendLimitHoldsAcrossNodes() throws {
        let (a, b) = try Self.nodes(["--test-clock"])
        let email = "limit-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        _ = try a.client().signUp(email)
        // One fixed window on both nodes: each node's test clock moved to just after the start
        // of the same hour (the development seed allows 10 emails per recipient per hour).
        let now = try a.client().serverSeconds()
        let windowStart = now - now % 3_600 + 3_600
        for node in [a, b] {
            let client = node.client()
            try client.advanceClock(seconds: windowStart + 1 - (try client.serverSeconds()))
        }

        let attempts = 30
        let statuses = Mutex<[(node: String, status: Int, error: String?)]>([])
        DispatchQueue.concurrentPerform(iterations: attempts) { index in
            let (name, node) = index % 2 == 0 ? ("A", a) : ("B", b)
            let sent = try? node.client().sendOobCode(["requestType": "PASSWORD_RESET", "email": email])
            statuses.withLock { $0.append((name, sent?.status ?? 0, sent?.errorMessage)) }
        }
        let answers = statuses.withLock { $0 }
        let accepted = answers.filter { $0.status == 200 }
        let refused = answers.filter { $0.status == 400 }
        #expect(accepted.count == 10, "\(answers)")
        #expect(refused.count == attempts - 10, "\(answers)")
        #expect(refused.allSatisfy { $0.error?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true }, "\(refused)")
        let queued =
            try a.client().admin("GET", "mail/messages?pageSize=100").json["messages"] as? [[String: Any]] ?? []
        let queuedToAddress = queued.filter { $0["to"] as? String == email }.count
        #expect(queuedToAddress == 10)
        print(
            "two nodes: \(attempts) password-reset sends to one address, alternately at A and B: "
                + "\(accepted.count) accepted (A \(accepted.filter { $0.node == "A" }.count), "
                + "B \(accepted.filter { $0.node == "B" }.count)), \(refused.count) refused with "
                + "TOO_MANY_ATTEMPTS_TRY_LATER, \(queuedToAddress) emails queued"
        )
    }

    @Test("twenty emails queued through both nodes arrive once each")
    func emailsQueuedThroughBothNodesArriveOnceEach() throws {
        let attempts = try Self.deliverTwentyEmailsThroughBothNodes(smtpOutage: false)
        #expect(attempts.allSatisfy { $0 == 1 }, "\(attempts)")
    }

    @Test("twenty emails held back by an SMTP outage arrive once each when both nodes' workers retry them")
    func emailsRetriedByBothNodesArriveOnceEach() throws {
        let attempts = try Self.deliverTwentyEmailsThroughBothNodes(smtpOutage: true)
        #expect(attempts.allSatisfy { $0 >= 2 }, "\(attempts)")
    }

    /// Queues a password reset for each of twenty accounts, ten through each node, and expects
    /// each email at the SMTP sink exactly once (by Message-ID). With `smtpOutage`, the sink is
    /// down until every email has failed an attempt, so the nodes' outbox workers race to
    /// retry them. Answers each email's recorded attempts.
    static func deliverTwentyEmailsThroughBothNodes(smtpOutage: Bool) throws -> [Int] {
        let sink = try SMTPSink()
        if smtpOutage { sink.stop() }
        let (a, b) = try Self.nodes(["--smtp", sink.url] + MailDeliveryTests.fastRetries)
        let recipients = (0..<20).map { "node-mail-\($0)-\(UUID().uuidString.prefix(6).lowercased())@example.com" }
        for (index, email) in recipients.enumerated() { _ = try (index % 2 == 0 ? a : b).client().signUp(email) }

        let answers = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: recipients.count) { index in
            let node = index % 2 == 0 ? a : b
            let sent = try? node.client().sendOobCode(["requestType": "PASSWORD_RESET", "email": recipients[index]])
            answers.withLock { $0.append(sent.map { "\($0.status) \($0.text)" } ?? "no answer") }
        }
        let refused = answers.withLock { $0 }.filter { !$0.hasPrefix("200 ") }
        #expect(refused.isEmpty, "\(refused)")
        let client = a.client()
        var stored: [[String: Any]] = []
        func storedMessages() throws -> [[String: Any]] {
            try client.admin("GET", "mail/messages?pageSize=100").json["messages"] as? [[String: Any]] ?? []
        }
        if smtpOutage {
            let allFailedOnce = try eventually(timeout: 30) {
                stored = try storedMessages()
                return stored.count == recipients.count
                    && stored.allSatisfy { $0["state"] as? String == "queued" && $0["attempts"] as? Int ?? 0 >= 1 }
            }
            #expect(allFailedOnce, "\(stored)")
            try sink.start()
        }
        let allSent = try eventually(timeout: 30) {
            stored = try storedMessages()
            return stored.count == recipients.count && stored.allSatisfy { $0["state"] as? String == "sent" }
        }
        #expect(allSent, "\(stored.map { ($0["to"] as? String ?? "", $0["state"] as? String ?? "") })")
        let expected = Set(stored.compactMap { $0["messageId"] as? String })
        let received = sink.waitForMessageIDs(expected)
        let receivedIDs = received.compactMap(\.messageID)
        let distinct = Set(receivedIDs)
        #expect(expected.count == recipients.count)
        #expect(receivedIDs.count == recipients.count, "\(receivedIDs)")
        #expect(distinct == expected)
        #expect(Set(received.compactMap { ($0["envelopeTo"] as? [String])?.first }) == Set(recipients))
        let attempts = stored.map { $0["attempts"] as? Int ?? 0 }
        print(
            "two nodes, SMTP sink\(smtpOutage ? " down until every email had failed once" : ""): "
                + "\(recipients.count) password-reset emails queued (10 through A, 10 through B), "
                + "\(receivedIDs.count) received, \(distinct.count) distinct Message-IDs, "
                + "\(receivedIDs.count - distinct.count) duplicates, attempts \(attempts.min() ?? 0)-\(attempts.max() ?? 0)"
        )
        return attempts
    }
}
