import Foundation
import Testing

@testable import HearthCrypto

@Suite struct Argon2idReferenceVectorTests {
    static func hash(
        _ password: String = "password",
        salt: String = "somesalt",
        iterations: UInt32 = 2,
        memoryKiB: UInt32 = 1 << 16,
        parallelism: UInt32 = 1
    ) -> String? {
        Array(password.utf8).withUnsafeBytes { password in
            Argon2id.rawHash(
                password: password,
                salt: Array(salt.utf8),
                iterations: iterations,
                memoryKiB: memoryKiB,
                parallelism: parallelism,
                length: 32
            ).map(Hex.encode)
        }
    }

    /// phc-winner-argon2 `src/test.c`, the Argon2id version 0x13 cases (`hashtest(version, t, log2 m, p, …)`).
    @Test func matchesTheReferenceImplementationTestVectors() {
        #expect(Self.hash() == "09316115d5cf24ed5a15a31a3ba326e5cf32edc24702987c02b6566f61913cf7")
        #expect(Self.hash(memoryKiB: 1 << 8) == "9dfeb910e80bad0311fee20f9c0e2b12c17987b4cac90c2ef54d5b3021c68bfe")
        #expect(
            Self.hash(memoryKiB: 1 << 8, parallelism: 2)
                == "6d093c501fd5999645e0ea3bf620d7b8be7fd2db59c20d9fff9539da2bf57037"
        )
        #expect(Self.hash(iterations: 1) == "f6a5adc1ba723dddef9b5ac1d464e180fcd9dffc9d1cbf76cca2fed795d9ca98")
        #expect(Self.hash(iterations: 4) == "9025d48e68ef7395cca9079da4c4ec3affb3c8911fe4f86d1a2520856f63172c")
        #expect(Self.hash("differentpassword") == "0b84d652cf6b0c4beaef0dfe278ba6a80df6696281d7e0d2891b817d8c458fde")
        #expect(Self.hash(salt: "diffsalt") == "bdf32b05ccc42eb15d58fd19b1f856b113da1e9a5874fdcc544308565aa8141c")
    }

    /// RFC 9106 §5.3: Argon2id with a secret and associated data, four lanes.
    @Test func matchesTheRFC9106TestVector() {
        let tag = [UInt8](repeating: 0x01, count: 32).withUnsafeBytes { password in
            Argon2id.rawHash(
                password: password,
                salt: [UInt8](repeating: 0x02, count: 16),
                secret: [UInt8](repeating: 0x03, count: 8),
                associatedData: [UInt8](repeating: 0x04, count: 12),
                iterations: 3,
                memoryKiB: 32,
                parallelism: 4,
                length: 32
            )
        }
        #expect(tag.map(Hex.encode) == "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659")
    }

    @Test func verifiesTheReferencePHCString() {
        let reference = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
        #expect(Argon2id.verify(password: "password", phc: reference))
        #expect(!Argon2id.verify(password: "passwore", phc: reference))
        #expect(PHCString(parsing: reference)?.encoded == reference)
    }
}

@Suite struct Argon2idTests {
    /// Cheap parameters for behaviour tests; the defaults are exercised once in `hashesWithTheOWASPDefaults`.
    let fast = Argon2id(memoryKiB: 1024, iterations: 1, parallelism: 1)

    @Test func hashesWithTheOWASPDefaults() throws {
        let hasher = Argon2id()
        #expect(hasher.memoryKiB == 19_456 && hasher.iterations == 2 && hasher.parallelism == 1)
        let phc = hasher.hash(password: "correct horse battery staple")
        let prefix = "$argon2id$v=19$m=19456,t=2,p=1$"
        #expect(phc.hasPrefix(prefix))
        let fields = phc.dropFirst(prefix.count).split(separator: "$")
        #expect(fields.count == 2)
        #expect(fields[0].count == 22)  // 16-byte salt, unpadded base64
        #expect(fields[1].count == 43)  // 32-byte hash, unpadded base64
        #expect(Argon2id.verify(password: "correct horse battery staple", phc: phc))
        #expect(!Argon2id.verify(password: "correct horse battery stapler", phc: phc))
    }

    @Test func everyHashHasAFreshSalt() {
        #expect(fast.hash(password: "same") != fast.hash(password: "same"))
    }

    @Test func bytesAndStringsHashAlike() {
        let phc = fast.hash(password: Array("pässword".utf8))
        #expect(Argon2id.verify(password: "pässword", phc: phc))
        #expect(Argon2id.verify(password: "pässword".utf8, phc: phc))
        #expect(!Argon2id.verify(password: "", phc: phc))
        let empty = fast.hash(password: "")
        #expect(Argon2id.verify(password: "", phc: empty))
        #expect(!Argon2id.verify(password: " ", phc: empty))
    }

    @Test func verificationUsesTheParametersStoredInTheString() {
        let old = Argon2id(memoryKiB: 2048, iterations: 3, parallelism: 2).hash(password: "pw")
        #expect(old.hasPrefix("$argon2id$v=19$m=2048,t=3,p=2$"))
        #expect(Argon2id.verify(password: "pw", phc: old))
    }

    @Test func malformedOrAbsurdPHCStringsAreFalse() {
        let valid = fast.hash(password: "pw")
        #expect(Argon2id.verify(password: "pw", phc: valid))
        let parts = valid.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        let salt = parts[4]
        let hash = parts[5]
        func phc(
            id: String = "argon2id",
            version: String = "v=19",
            parameters: String = "m=1024,t=1,p=1",
            salt: String = salt,
            hash: String = hash
        ) -> String {
            "$\(id)$\(version)$\(parameters)$\(salt)$\(hash)"
        }
        #expect(Argon2id.verify(password: "pw", phc: phc()))  // the helper rebuilds the valid string
        let bad = [
            "", "$", "argon2id", valid + "$", String(valid.dropFirst()), "$" + valid,
            phc(id: "argon2i"), phc(id: "argon2d"), phc(id: "Argon2id"),
            phc(version: "v=16"), phc(version: "v=019"), phc(version: "m=1024,t=1,p=1"),
            phc(parameters: "m=1024,t=1"), phc(parameters: "t=1,m=1024,p=1"), phc(parameters: "m=1024,t=1,p=1,x=1"),
            phc(parameters: "m=01024,t=1,p=1"), phc(parameters: "m=+1024,t=1,p=1"), phc(parameters: "m=1024,t=1,p=1 "),
            phc(parameters: "m=1048577,t=1,p=1"),  // over 1 GiB
            phc(parameters: "m=4294967295,t=1,p=1"), phc(parameters: "m=99999999999,t=1,p=1"),
            phc(parameters: "m=1024,t=0,p=1"), phc(parameters: "m=1024,t=33,p=1"),
            phc(parameters: "m=1024,t=1,p=0"), phc(parameters: "m=1024,t=1,p=65"), phc(parameters: "m=7,t=1,p=1"),
            phc(salt: salt + "=="), phc(salt: "c29tZQ"),  // 5-byte salt
            phc(salt: ""), phc(salt: salt.replacingOccurrences(of: salt.prefix(1), with: "-")),
            phc(hash: hash + "="), phc(hash: String(hash.dropLast(30))), phc(hash: ""), phc(hash: hash + "AAAA"),
            String(repeating: "$argon2id", count: 100),
        ]
        for string in bad {
            #expect(!Argon2id.verify(password: "pw", phc: string), "accepted \(string)")
        }
    }

    @Test func needsRehashWhenParametersDiffer() {
        let current = fast.hash(password: "pw")
        #expect(!fast.needsRehash(phc: current))
        #expect(Argon2id(memoryKiB: 2048, iterations: 1, parallelism: 1).needsRehash(phc: current))
        #expect(Argon2id(memoryKiB: 1024, iterations: 2, parallelism: 1).needsRehash(phc: current))
        #expect(Argon2id(memoryKiB: 1024, iterations: 1, parallelism: 2).needsRehash(phc: current))
        #expect(fast.needsRehash(phc: "garbage"))
        // The reference string has an 8-byte salt: valid, but below what `hash` writes now.
        let reference = "$argon2id$v=19$m=1024,t=1,p=1$c29tZXNhbHQ$" + String(current.split(separator: "$")[4])
        #expect(fast.needsRehash(phc: reference))
    }

    @Test func theDummyVerificationCostsAboutAsMuchAsARealOne() {
        // Memory-heavy enough that the hash dominates everything else; minimum of three runs each to resist
        // noise from tests running in parallel.
        let hasher = Argon2id(memoryKiB: 32_768, iterations: 2, parallelism: 1)
        let phc = hasher.hash(password: "pw")
        let clock = ContinuousClock()
        func fastest(_ body: () -> Void) -> Duration {
            (0..<3).map { _ in clock.measure(body) }.min()!
        }
        let real = fastest { _ = Argon2id.verify(password: "wrong", phc: phc) }
        let dummy = fastest { Argon2id.verifyAgainstDummy(password: "wrong", parameters: hasher) }
        #expect(dummy > real / 3, "dummy \(dummy) vs real \(real)")
        #expect(dummy < real * 3, "dummy \(dummy) vs real \(real)")
    }
}
