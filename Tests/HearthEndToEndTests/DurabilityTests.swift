import Dispatch
import Foundation
import HearthTestSupport
import Synchronization
import Testing

/// Writes acknowledged just before `kill -9` are all present after a restart.
@Suite struct DurabilityTests {
    @Test func acknowledgedWritesSurviveSIGKILL() throws {
        let server = try HearthServerProcess()
        let acknowledged = Mutex<[String]>([])
        // Key rotations are durable writes; several clients make them concurrently, so
        // they are group-committed, and the server is killed while they keep coming.
        let group = DispatchGroup()
        let stop = Atomic<Bool>(false)
        for _ in 0..<4 {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                let client = server.client()
                while !stop.load(ordering: .relaxed) {
                    guard
                        let response = try? client.json(
                            "POST",
                            "/hearth/v1/projects/demo-project/signingKeys:rotate",
                            ["purpose": "installations"],
                            headers: [("Authorization", "Bearer owner")]
                        ), response.status == 200, let keyID = response.json["keyId"] as? String
                    else { return }
                    acknowledged.withLock { $0.append(keyID) }
                }
            }
        }
        Thread.sleep(forTimeInterval: 1.5)
        server.kill()
        stop.store(true, ordering: .relaxed)
        group.wait()
        let keys = acknowledged.withLock { $0 }
        #expect(keys.count > 10)

        try server.restart()
        let jwks = try server.client().request("GET", "/v1/projects/demo-project/jwks")
        let published = Set((jwks.json["keys"] as? [[String: Any]] ?? []).compactMap { $0["kid"] as? String })
        let missing = keys.filter { !published.contains($0) }
        #expect(missing.isEmpty, "acknowledged but lost: \(missing)")
    }
}
