import Dispatch
import HearthBase
import HearthCore
import HearthCrypto
import HearthStore
import Synchronization
import Testing

/// A legacy Instance ID as the iOS and Android SDKs derive it: 8 bytes (of a SHA-1 digest),
/// the first nibble forced to `0111`, base64url without padding.
func legacyInstanceID(_ bytes: [UInt8] = SecureRandom.bytes(count: 8)) -> String {
    var bytes = bytes
    bytes[0] = 0b0111_0000 | (bytes[0] & 0x0F)
    return Base64URL.encode(bytes)
}

@Suite struct LegacyInstanceIDShapeTests {
    @Test func derivedIDsAreElevenCharactersWithTheHeaderNibbleAndATwoZeroBitTail() {
        let ids = (0..<2_000).map { _ in legacyInstanceID() }
        #expect(ids.allSatisfy(LegacyInstanceID.isWellFormed))
        #expect(ids.allSatisfy { $0.utf8.count == 11 })
        #expect(Set(ids.map { $0.first! }) == ["c", "d", "e", "f"])
        #expect(Set(ids.map { $0.last! }).isSubset(of: Set("AEIMQUYcgkosw048")))
        #expect(LegacyInstanceID.isWellFormed("dy1ebDcq-R0"))
    }

    @Test func shapesThatAreNotLegacyIDsAreRefused() {
        // The last character carries two bits past the 64: they must be zero.
        #expect(!LegacyInstanceID.isWellFormed("dy1ebDcq-R1"))
        #expect(!LegacyInstanceID.isWellFormed("dy1ebDcq-R_"))
        // Wrong header bits, wrong lengths, characters outside base64url.
        #expect(!LegacyInstanceID.isWellFormed("ay1ebDcq-R0"))
        #expect(!LegacyInstanceID.isWellFormed("gy1ebDcq-R0"))
        #expect(!LegacyInstanceID.isWellFormed("dy1ebDcq-R"))
        #expect(!LegacyInstanceID.isWellFormed("dy1ebDcq-R0A"))
        #expect(!LegacyInstanceID.isWellFormed("dy1ebDcq+R0"))
        #expect(!LegacyInstanceID.isWellFormed("dy1ebDcq/R0"))
        #expect(!LegacyInstanceID.isWellFormed("dy1ebDcq-R="))
        #expect(!LegacyInstanceID.isWellFormed(""))
        #expect(!LegacyInstanceID.isWellFormed(FID.generate()))
    }

    @Test func anInstallationIDIsAnFIDOrALegacyIDAndNothingElse() {
        #expect(FID.isInstallationID(FID.generate()))
        #expect(FID.isInstallationID("dy1ebDcq-R0"))
        #expect(!FID.isWellFormed("dy1ebDcq-R0"))
        #expect(!FID.isInstallationID("dy1ebDcq-R1"))
        #expect(!FID.isInstallationID("not-a-fid"))
        #expect(!FID.isInstallationID("cGVzdC1maWQtMTIzNDU2Nzg="))
    }

    @Test func aLegacyIDMigratesOnlyWithAPlausibleTokenThatDoesNotNameAnotherID() {
        let id = "dy1ebDcq-R0"
        #expect(LegacyInstanceID.mayMigrate(id, provenBy: "\(id):APA91bHPRgkF3JUikC4ENAHEeMrd41Zxv3hVZjC9KtT8Oqt"))
        #expect(LegacyInstanceID.mayMigrate(id, provenBy: "an-opaque-iid-token_without.a-colon"))
        // No header, an empty one, or one that is not a token.
        #expect(!LegacyInstanceID.mayMigrate(id, provenBy: nil))
        #expect(!LegacyInstanceID.mayMigrate(id, provenBy: ""))
        #expect(!LegacyInstanceID.mayMigrate(id, provenBy: "two words"))
        #expect(!LegacyInstanceID.mayMigrate(id, provenBy: "tab\there"))
        #expect(!LegacyInstanceID.mayMigrate(id, provenBy: "é-token"))
        #expect(!LegacyInstanceID.mayMigrate(id, provenBy: String(repeating: "a", count: 4_097)))
        // A token issued to another instance.
        #expect(!LegacyInstanceID.mayMigrate(id, provenBy: "eAbCdEfGhIg:APA91bHPRgkF3JUikC4ENAHEeMrd41Zxv3hVZjC9"))
        #expect(!LegacyInstanceID.mayMigrate(id, provenBy: "\(FID.generate()):APA91bHPRgkF3JUikC4ENAHEeMrd41Z"))
        // Only a legacy-shaped ID migrates.
        #expect(!LegacyInstanceID.mayMigrate("dy1ebDcq-R1", provenBy: "dy1ebDcq-R1:APA91b"))
    }
}

/// The registry keeping a migrated legacy ID through its whole life, over a real store.
@Suite struct LegacyInstanceIDRegistryTests {
    private let temporary: TemporaryStore
    private let clock = ManualClock(milliseconds: 1_800_000_000_000)
    private let registry: InstallationRegistry
    private let project = DevelopmentSeed.project

    init() throws {
        temporary = try TemporaryStore()
        let projects = try ProjectDirectory(store: temporary.store, clock: clock)
        try projects.save(DevelopmentSeed.project)
        let keys = KeyRing(store: temporary.store, clock: clock, masterKey: MasterKey.generate())
        registry = InstallationRegistry(store: temporary.store, clock: clock, keys: keys)
    }

    private func register(_ fid: String, app: String = DevelopmentSeed.iosAppID, token: String?) throws
        -> InstallationRegistry.Registration
    {
        try registry.register(
            project: project,
            requestedFID: fid,
            appID: app,
            sdkVersion: "i:11.0.0",
            migrationToken: token
        )
    }

    @Test func aLegacyIDWithItsMigrationTokenIsKeptGetsTokensAndIsDeletedByTheClient() throws {
        let id = legacyInstanceID()
        let registration = try register(id, token: "\(id):APA91bLegacyToken")
        #expect(registration.fid == id)
        let verified = try registry.verify(token: registration.authToken.token, project: project)
        #expect(verified.fid == id)
        let token = try registry.generateToken(
            project: project,
            fid: id,
            refreshToken: registration.refreshToken,
            appID: nil,
            sdkVersion: nil
        )
        #expect(try registry.verify(token: token.token, project: project).fid == id)
        try registry.delete(project: project, fid: id, refreshToken: registration.refreshToken)
        #expect(try registry.tombstone(project: project, fid: id)?.cause == "client")
    }

    @Test func aLegacyIDWithoutItsMigrationTokenIsReplacedByANewFID() throws {
        let id = legacyInstanceID()
        let registration = try register(id, token: nil)
        #expect(registration.fid != id)
        #expect(FID.isWellFormed(registration.fid))
        #expect(try registry.installation(project: project, fid: id) == nil)
    }

    @Test func aLegacyIDHeldByOneAppOrDeletedIsNeverHandedToAnother() throws {
        let id = legacyInstanceID()
        let owner = try register(id, token: "opaque-token-1")
        #expect(owner.fid == id)
        let other = try register(id, app: DevelopmentSeed.androidAppID, token: "opaque-token-1")
        #expect(other.fid != id)
        #expect(try registry.installation(project: project, fid: id)?.appID == DevelopmentSeed.iosAppID)

        try registry.deleteAsAdmin(project: project, fid: id)
        let again = try register(id, token: "opaque-token-1")
        #expect(again.fid != id)
        #expect(throws: InstallationError.alreadyDeleted) { try registry.deleteAsAdmin(project: project, fid: id) }
        #expect(throws: InstallationError.notFound) {
            try registry.deleteAsAdmin(project: project, fid: legacyInstanceID())
        }
    }
}

/// A registration's answer is built on the store's completion thread, where a synchronous
/// write (such as making the project's first signing key) would wait on itself.
@Suite struct RegistrationCompletionTests {
    @Test func theFirstRegistrationOfAFreshProjectWithAReplacedFIDFinishesOnTheStoresCompletionThread() throws {
        let temporary = try TemporaryStore()
        let clock = ManualClock(milliseconds: 1_800_000_000_000)
        let projects = try ProjectDirectory(store: temporary.store, clock: clock)
        try projects.save(DevelopmentSeed.project)
        let keys = KeyRing(store: temporary.store, clock: clock, masterKey: MasterKey.generate())
        let registry = InstallationRegistry(store: temporary.store, clock: clock, keys: keys)
        let write = try registry.registration(
            project: DevelopmentSeed.project,
            requestedFID: "not-an-fid",
            appID: DevelopmentSeed.webAppID,
            sdkVersion: "w:1"
        )
        let answer = Mutex<Result<InstallationRegistry.Registration, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        temporary.store.write(write) { result in
            answer.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + 20) == .success else {
            // The writer is stuck; closing the store would wait for it forever, so it is leaked.
            _ = Unmanaged.passRetained(temporary)
            Issue.record("the answer never came: finish waited on the store")
            return
        }
        let registration = try #require(try answer.withLock { $0 }?.get())
        #expect(FID.isWellFormed(registration.fid))
    }
}
