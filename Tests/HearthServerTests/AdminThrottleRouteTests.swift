import HearthBase
import HearthCore
import HearthHTTP
import HearthServer
import Testing

/// Failed admin authentication backs off per client address on every admin route family.
@Suite struct AdminThrottleRouteTests {
    @Test("after the free failures an address gets 429 with Retry-After; the right credential elsewhere is served")
    func failedAdminAuthenticationBacksOff() throws {
        let app = try TestApplication()
        let (credential, _) = try app.application.adminCredentials.create(
            projectID: TestApplication.projectID,
            label: "ci"
        )
        let lookup = "/v1/projects/\(TestApplication.projectID)/accounts:lookup"
        let messages = "/hearth/v1/projects/\(TestApplication.projectID)/mail/messages"
        func call(_ method: HTTPMethod, _ target: String, _ authorization: String, from address: String) -> TestAnswer {
            app.send(
                method,
                target,
                json: method == .post ? ["localId": ["nobody"]] : nil,
                headers: [("Authorization", authorization)],
                remoteAddress: address
            )
        }
        let attacker = "203.0.113.66"
        for index in 0..<11 {
            let target = index.isMultiple(of: 2) ? lookup : messages
            let answer = call(
                index.isMultiple(of: 2) ? .post : .get,
                target,
                "Bearer hak_guess_\(index)",
                from: attacker
            )
            try #require(answer.status == 401, "attempt \(index): \(answer.text)")
        }
        for (method, target) in [(HTTPMethod.post, lookup), (.get, messages)] {
            let waiting = call(method, target, "Bearer \(credential)", from: attacker)
            #expect(waiting.status == 429, "\(target): \(waiting.text)")
            #expect(waiting.header("Retry-After") == "1")
            #expect(waiting.json["error"]?["status"]?.stringValue == "RESOURCE_EXHAUSTED")
            #expect(
                waiting.errorMessage
                    == "Too many failed admin authentications from this address. Try again in 1 s."
            )
            #expect(call(method, target, "Bearer \(credential)", from: "198.51.100.8").status == 200)
        }
        app.clock.advance(milliseconds: 1_000)
        #expect(call(.get, messages, "Bearer \(credential)", from: attacker).status == 200)
    }
}
