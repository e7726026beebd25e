import Foundation
import HearthTestSupport
import Testing

/// The client address is the TCP peer: headers that name another address (as a proxy would,
/// or a client pretending to be one) never move a request out of its own address's limits.
@Suite struct ForwardedAddressTests {
    /// Every header a proxy or CDN uses to name the client, each naming another address for
    /// request `index`.
    static func claimedAddress(_ index: Int) -> [(String, String)] {
        let address = "203.0.113.\(index % 250 + 1)"
        return [
            ("X-Forwarded-For", address), ("Forwarded", "for=\(address);proto=https"), ("X-Real-IP", address),
            ("True-Client-IP", address), ("CF-Connecting-IP", address), ("X-Client-IP", address),
        ]
    }

    @Test func aClientNamingAnotherAddressInEveryRequestStillSpendsItsOwnSendLimit() throws {
        // limits-project: 4 emails per client address per hour, 2 per recipient.
        let server = try EmailActions.server()
        let client = server.client()
        var statuses: [Int] = []
        for index in 0..<10 {
            let sent = try client.sendOobCode(
                [
                    "requestType": "EMAIL_SIGNIN", "email": "r\(index)@example.com",
                    "continueUrl": "https://app.example.org/",
                ],
                key: EmailActions.limitsAPIKey,
                headers: Self.claimedAddress(index)
            )
            statuses.append(sent.status)
            if sent.status != 200 {
                #expect(sent.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true, "\(index): \(sent.text)")
            }
        }
        #expect(statuses == Array(repeating: 200, count: 4) + Array(repeating: 400, count: 6))
        print(
            "forwarded headers, sends: 10 requests each naming another address, "
                + "\(statuses.filter { $0 == 200 }.count) sent, \(statuses.filter { $0 == 400 }.count) refused"
        )
    }

    @Test func aClientNamingAnotherAddressInEveryRequestStillBacksOffAfterFailedSignIns() throws {
        let server = try Accounts.server()
        let client = server.client()
        _ = try client.signUp("adam@example.com", "password-1")
        // 100 failures from one address are free across emails; the 101st starts its back-off.
        for index in 0..<101 {
            let failed = try client.call(
                "accounts:signInWithPassword",
                ["email": "guess\(index % 50)-\(index / 50)@example.com", "password": "password-1"],
                headers: Self.claimedAddress(index)
            )
            try #require(failed.errorMessage == "INVALID_LOGIN_CREDENTIALS", "attempt \(index): \(failed.text)")
        }
        let blocked = try client.call(
            "accounts:signInWithPassword",
            ["email": "adam@example.com", "password": "password-1", "returnSecureToken": true],
            headers: Self.claimedAddress(101)
        )
        #expect(blocked.status == 400, "\(blocked.text)")
        #expect(blocked.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true)
        #expect(blocked.errorMessage?.contains("from this address") == true)
        print(
            "forwarded headers, sign-in: 101 failures each naming another address, then the right password: \(blocked.status)"
        )
    }

    @Test func aClientNamingAnotherAddressOnEachConnectionStillMeetsThePerAddressConnectionLimit() throws {
        let server = try HearthServerProcess(arguments: ["--per-ip-connection-limit", "4"])
        var held: [TestHTTPClient] = []
        var answered: [Int] = []
        for index in 0..<6 {
            let client = TestHTTPClient(port: server.port)
            answered.append(try client.request("GET", "/healthz", headers: Self.claimedAddress(index)).status)
            held.append(client)
        }
        #expect(answered == [200, 200, 200, 200, 503, 503])
        print(
            "forwarded headers, connections: 6 kept open each naming another address, "
                + "\(answered.filter { $0 == 200 }.count) served, \(answered.filter { $0 == 503 }.count) refused"
        )
    }

    @Test func aClientBehindATrustedProxyIsCountedByTheAddressTheProxyAppended() throws {
        // This test's connections come from 127.0.0.1, trusted as the proxy.
        let server = try EmailActions.server(["--trusted-proxies", "127.0.0.1"])
        let client = server.client()
        var recipient = 0
        func send(forwardedFor: String) throws -> Int {
            recipient += 1
            return try client.sendOobCode(
                [
                    "requestType": "EMAIL_SIGNIN", "email": "p\(recipient)@example.com",
                    "continueUrl": "https://app.example.org/",
                ],
                key: EmailActions.limitsAPIKey,
                headers: [("X-Forwarded-For", forwardedFor)]
            ).status
        }
        // limits-project: 4 emails per client address per hour. Ten clients, one email each.
        let tenClients = try (1...10).map { try send(forwardedFor: "203.0.113.\($0)") }
        #expect(tenClients == Array(repeating: 200, count: 10))
        // One client, five emails.
        let oneClient = try (1...5).map { _ in try send(forwardedFor: "198.51.100.7") }
        #expect(oneClient == Array(repeating: 200, count: 4) + [400])
        // That client naming a fresh address of its own, left of what the proxy appended.
        let disguised = try send(forwardedFor: "192.0.2.99, 198.51.100.7")
        #expect(disguised == 400)
        #expect(server.waitForOutput(#""remote":"198.51.100.7""#, timeout: 5))
        print(
            "forwarded headers, trusted proxy: 10 addresses named by the proxy \(tenClients.filter { $0 == 200 }.count) "
                + "sent; one address 5 sends, \(oneClient.filter { $0 == 200 }.count) sent; its own entry on the left: "
                + "\(disguised)"
        )
    }
}
