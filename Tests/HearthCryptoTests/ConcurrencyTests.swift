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

    /// ES256 signatures use nonces made ahead in batches and shared by all threads; a nonce handed to two
    /// signers would give away the private key. Many threads sign the same message at once: every signature
    /// verifies and no two share an r (r = x(k·G) repeats only if k does).
    @Test func concurrentES256SignaturesNeverShareANonce() async throws {
        let key = ES256.PrivateKey.generate()
        let message = Array("the same message every time".utf8)
        let signatures = try await withThrowingTaskGroup(of: [[UInt8]].self) { group in
            for _ in 0..<8 {
                group.addTask { try (0..<1_500).map { _ in try key.signature(for: message) } }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(signatures.count == 12_000)
        #expect(signatures.allSatisfy { key.publicKey.isValidSignature($0, for: message) })
        #expect(Set(signatures.map { $0.prefix(32) }).count == signatures.count)
    }
}
