import HearthBase
import HearthCore
import HearthCrypto
import HearthStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct KeyRingTests {
    private func makeRing(_ temporary: TemporaryStore, clock: any Clock, masterKey: MasterKey = .generate()) throws
        -> KeyRing
    {
        let directory = try ProjectDirectory(store: temporary.store, clock: clock)
        try directory.save(DevelopmentSeed.project)
        return KeyRing(store: temporary.store, clock: clock, masterKey: masterKey)
    }

    @Test func theFirstUseMakesOneKeyPerPurposeAndLaterUsesReuseIt() throws {
        let temporary = try TemporaryStore()
        let ring = try makeRing(temporary, clock: SystemClock())
        let first = try ring.activeKey(projectID: "demo-project", purpose: .installations)
        let again = try ring.activeKey(projectID: "demo-project", purpose: .installations)
        let idKey = try ring.activeKey(projectID: "demo-project", purpose: .idTokens)
        #expect(first.keyID == again.keyID)
        #expect(first.keyID != idKey.keyID)
        let published = try ring.publishedKeys(projectID: "demo-project").keys.map(\.jwk)
        #expect(Set(published.map(\.kid)) == [first.keyID, idKey.keyID])
        #expect(Set(published.compactMap(\.alg)) == ["ES256", "RS256"])
    }

    @Test func aKeyMadeAfterThePublishedKeysWereLoadedIsPublishedAtOnce() throws {
        let temporary = try TemporaryStore()
        let ring = try makeRing(temporary, clock: SystemClock())
        #expect(try ring.publishedKeys(projectID: "demo-project").keys.isEmpty)
        let made = try ring.activeKey(projectID: "demo-project", purpose: .installations)
        #expect(try ring.publishedKeys(projectID: "demo-project").keys.map(\.keyID) == [made.keyID])
    }

    @Test func aTokenSignedByTheActiveKeyVerifiesWithThePublishedKey() throws {
        let temporary = try TemporaryStore()
        let clock = SystemClock()
        let ring = try makeRing(temporary, clock: clock)
        let active = try ring.activeKey(projectID: "demo-project", purpose: .installations)
        let token = try JWT.sign(payload: Array(#"{"fid":"x"}"#.utf8), key: active.key, keyID: active.keyID)
        let verified = try JWT.verify(
            token,
            keys: { kid in kid.flatMap { ring.verificationKey(projectID: "demo-project", keyID: $0) } },
            now: clock.nowSeconds()
        )
        #expect(verified.header.kid == active.keyID)
        #expect(ring.verificationKey(projectID: "other-project", keyID: active.keyID) == nil)
    }

    @Test func aRotatedKeyStaysPublishedUntilItsTokensExpire() throws {
        let temporary = try TemporaryStore()
        let clock = ManualClock(milliseconds: 1_700_000_000_000)
        let ring = try makeRing(temporary, clock: clock)
        let old = try ring.activeKey(projectID: "demo-project", purpose: .installations)
        let newID = try ring.rotate(projectID: "demo-project", purpose: .installations, tokenLifetimeSeconds: 3_600)
        #expect(try ring.activeKey(projectID: "demo-project", purpose: .installations).keyID == newID)
        #expect(Set(try ring.publishedKeys(projectID: "demo-project").keys.map(\.keyID)) == [old.keyID, newID])
        #expect(ring.verificationKey(projectID: "demo-project", keyID: old.keyID) != nil)
        clock.advance(milliseconds: (3_600 + 301) * 1_000)
        #expect(try ring.publishedKeys(projectID: "demo-project").keys.map(\.keyID) == [newID])
        #expect(ring.verificationKey(projectID: "demo-project", keyID: old.keyID) == nil)
    }

    @Test func everyProjectsIDTokenKeysArePublishedTogetherAndARotationByAnotherRingShowsOnReload() throws {
        let temporary = try TemporaryStore()
        let clock = ManualClock(milliseconds: 1_700_000_000_000)
        let masterKey = MasterKey.generate()
        _ = try makeRing(temporary, clock: clock, masterKey: masterKey)
        let ring = KeyRing(store: temporary.store, clock: clock, masterKey: masterKey, reloadMilliseconds: 50)
        let idle = KeyRing(store: temporary.store, clock: clock, masterKey: masterKey)
        try ProjectDirectory(store: temporary.store, clock: clock)
            .save(Project(id: "second-project", number: "200000000000", apiKeys: ["second-key"]))
        let first = try ring.activeKey(projectID: "demo-project", purpose: .idTokens).keyID
        let second = try ring.activeKey(projectID: "second-project", purpose: .idTokens).keyID
        _ = try ring.activeKey(projectID: "demo-project", purpose: .installations)
        let before = try ring.publishedKeys(purpose: .idTokens)
        #expect(Set(before.keys.map(\.keyID)) == [first, second])
        #expect(before.keys.allSatisfy { $0.purpose == .idTokens && $0.publishedUntil == nil })
        #expect(before.cacheSeconds(nowMilliseconds: clock.nowMilliseconds()) == PublishedKeySet.maximumCacheSeconds)
        #expect(try idle.publishedKeys(purpose: .idTokens).revision == before.revision)

        // Another process (the CLI) rotates on the same store: a reloading ring sees it within
        // its reload interval; requests never read, so a ring that is not reloading does not.
        ring.startReloading()
        defer { ring.stopReloading() }
        let other = KeyRing(store: temporary.store, clock: clock, masterKey: masterKey)
        let rotated = try other.rotate(projectID: "demo-project", purpose: .idTokens, tokenLifetimeSeconds: 3_600)
        let deadline = ContinuousClock.now + .seconds(10)
        while try ring.publishedKeys(purpose: .idTokens).revision == before.revision && ContinuousClock.now < deadline {
            usleep(10_000)
        }
        #expect(try idle.publishedKeys(purpose: .idTokens).revision == before.revision)
        let after = try ring.publishedKeys(purpose: .idTokens)
        #expect(after.revision != before.revision)
        #expect(Set(after.keys.map(\.keyID)) == [first, second, rotated])
        let retired = try #require(after.keys.first { $0.keyID == first })
        #expect(retired.publishedUntil == clock.nowSeconds() + 3_600 + 300)
        #expect(after.nextScheduledChange == retired.publishedUntil)

        // Its certificate ends with its window; the signing key's has no end.
        let certificate = try X509Certificate(pem: try ring.certificate(for: retired))
        #expect(certificate.notBefore == retired.publishedSince && certificate.notAfter == retired.publishedUntil)
        #expect(certificate.holds(try RS256.PublicKey(jwk: retired.jwk)) && certificate.isSelfSigned)
        // The serial is the key ID with its top bit cleared.
        var serial = try #require(Hex.decode(first))
        serial[0] &= 0x7F
        #expect(certificate.serialNumber == Array(serial.drop { $0 == 0 }))
        let installations = try #require(
            try ring.publishedKeys(projectID: "demo-project").keys.first { $0.purpose == .installations }
        )
        #expect(throws: (any Error).self) { try ring.certificate(for: installations) }
    }

    @Test func privateKeysAreSealedAndNeedTheMasterKey() throws {
        let temporary = try TemporaryStore()
        let ring = try makeRing(temporary, clock: SystemClock())
        let active = try ring.activeKey(projectID: "demo-project", purpose: .installations)
        let record = try temporary.store.read { try $0.signingKey(id: active.keyID) }
        let sealed = try #require(record?.sealedPrivateKey)
        #expect(!String(decoding: sealed, as: UTF8.self).contains("PRIVATE KEY"))
        let stranger = KeyRing(store: temporary.store, clock: SystemClock(), masterKey: .generate())
        #expect(throws: (any Error).self) { try stranger.activeKey(projectID: "demo-project", purpose: .installations) }
    }

    @Test func theMasterKeyTextRoundTripsAndRejectsWrongLengths() {
        let key = MasterKey.generate()
        #expect(MasterKey(text: key.text + "\n")?.text == key.text)
        #expect(MasterKey(text: "c2hvcnQ") == nil)
    }
}
