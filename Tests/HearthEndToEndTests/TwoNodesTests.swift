import Foundation
import HearthCrypto
import HearthTestSupport
import Testing

/// Two `hearth serve` nodes on one PostgreSQL database, with the cluster's one master key.
@Suite(.enabled(if: TestDatabase.runsOnPostgreSQL, "nodes share a database on PostgreSQL"))
struct TwoNodesTests {
    @Test("a project change made through one node is served by the other within a second")
    func aProjectChangeReachesTheOtherNodeAtOnce() throws {
        let database = try TestDatabase()
        let key = ["HEARTH_MASTER_KEY": Base64URL.encode(SecureRandom.bytes(count: 32))]
        let a = try HearthServerProcess(environment: key, database: database)
        let b = try HearthServerProcess(environment: key, database: database)
        let path = "/hearth/v1/projects/demo-project/mail/templates/VERIFY_EMAIL/en"
        let subject = "Confirm your address, node test \(UUID().uuidString.prefix(8))"

        let saved = try a.client().json("PUT", path, ["subject": subject], headers: [Seed.admin])
        #expect(saved.status == 200, "\(saved.text)")
        let clock = ContinuousClock()
        let changed = clock.now
        let other = b.client()
        var seen = false
        while !seen && clock.now - changed < .seconds(5) {
            let response = try other.request("GET", path, headers: [Seed.admin])
            seen = response.text.contains(subject)
            if !seen { usleep(5_000) }
        }
        let delay = clock.now - changed
        print("two nodes: the template saved through A served by B after \(delay)")
        #expect(seen)
        #expect(delay < .seconds(1), "B served the change \(delay) after A's answer")
    }
}
