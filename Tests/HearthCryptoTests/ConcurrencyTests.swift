import HearthCrypto
import Testing

/// The keys and pre-fetched algorithms are shared by every HTTP worker thread; hammer them from several tasks at
/// once and check every result.
@Suite struct ConcurrencyTests {
    @Test func sharedKeysAndAlgorithmsWorkFromManyTasksAtOnce() async throws {
        let ecKey = ES256.PrivateKey.generate()
        let rsaKey = RS256Tests.sharedKey
        let hmacKey = SecureRandom.bytes(count: 32)
        let expectedMAC = HMACSHA256.authenticationCode(key: hmacKey, message: Array("m".utf8))
        let expectedDigest = SHA256.hash(Array("m".utf8))

        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var failures = 0
                    for round in 0..<300 {
                        let payload = Array(#"{"task":\#(task),"round":\#(round)}"#.utf8)
                        let key: JWT.SigningKey = round % 10 == 0 ? .rs256(rsaKey) : .es256(ecKey)
                        let token = try JWT.sign(payload: payload, key: key, keyID: nil)
                        let verified = try JWT.verify(token, keys: { _ in key.verificationKey }, now: 0)
                        if verified.payload != payload { failures += 1 }
                        if HMACSHA256.authenticationCode(key: hmacKey, message: Array("m".utf8)) != expectedMAC {
                            failures += 1
                        }
                        if SHA256.hash(Array("m".utf8)) != expectedDigest { failures += 1 }
                    }
                    return failures
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)
    }
}
