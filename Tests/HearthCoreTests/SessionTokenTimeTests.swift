import HearthBase
import HearthCore
import HearthCrypto
import HearthStore
import Synchronization
import Testing

/// A clock that moves 700 ms forward each time it is read: any two reads of it fall in
/// different seconds once a second boundary lies between them.
final class TickingClock: Clock {
    private let milliseconds: Atomic<Int64>
    init(milliseconds: Int64) { self.milliseconds = Atomic(milliseconds) }
    func nowMilliseconds() -> Int64 { milliseconds.add(700, ordering: .relaxed).oldValue }
}

/// An account service on a fresh store with the seed project, `clock` and `hasher` (keep the
/// store alive while the service is used).
private func accountService(clock: any Clock, hasher: any PasswordHasher) throws -> (
    TemporaryStore, Project, AccountService
) {
    let temporary = try TemporaryStore()
    let project = try ProjectDirectory(store: temporary.store, clock: clock).save(DevelopmentSeed.project)
    let keys = KeyRing(store: temporary.store, clock: clock, masterKey: .generate())
    return (temporary, project, AccountService(store: temporary.store, clock: clock, keys: keys, hasher: hasher))
}

@Suite("When a session's first ID token is issued")
struct SessionTokenTimeTests {
    private func claims(_ token: String) throws -> JSONValue {
        let payload = try #require(token.split(separator: ".").dropFirst().first)
        let bytes = try #require(Base64URL.decode(String(payload)))
        return try JSONValue.parse(bytes)
    }

    @Test("sign-up and sign-in tokens have iat equal to auth_time however late they are signed")
    func firstTokenIsIssuedWhenTheSessionStarts() throws {
        let (temporary, project, service) = try accountService(
            clock: TickingClock(milliseconds: 1_800_000_000_000),
            hasher: CountingHasher()
        )
        defer { withExtendedLifetime(temporary) {} }

        let signedUp = try service.signUp(
            project: project,
            email: "ada@example.com",
            password: "right-password",
            displayName: nil,
            clientAddress: "10.0.0.1"
        )
        let first = try claims(signedUp.tokens.idToken)
        #expect(first["iat"] != nil)
        #expect(first["iat"] == first["auth_time"])

        let signedIn = try service.signIn(
            project: project,
            email: "ada@example.com",
            password: "right-password",
            clientAddress: "10.0.0.1"
        )
        let again = try claims(signedIn.tokens.idToken)
        #expect(again["iat"] == again["auth_time"])
    }
}

/// A hasher whose verification runs `during` first: something that happens while a hash runs.
final class InterruptedHasher: PasswordHasher {
    let base = CountingHasher()
    let during = Mutex<(@Sendable () -> Void)?>(nil)
    func hash(_ password: String) -> String { base.hash(password) }
    func verify(_ password: String, against storedHash: String) -> Bool {
        if let action = during.withLock({ $0 }) { action() }
        return base.verify(password, against: storedHash)
    }
    func verifyAgainstDummy(_ password: String) { base.verifyAgainstDummy(password) }
}

@Suite("A sign-in racing a change to its account")
struct SignInRaceTests {
    @Test("an account disabled while its password is verified gets no session")
    func disabledDuringTheHash() throws {
        let hasher = InterruptedHasher()
        let (temporary, project, service) = try accountService(
            clock: ManualClock(milliseconds: 1_800_000_000_000),
            hasher: hasher
        )
        defer { withExtendedLifetime(temporary) {} }
        let signedUp = try service.signUp(
            project: project,
            email: "ada@example.com",
            password: "right-password",
            displayName: nil,
            clientAddress: "10.0.0.1"
        )
        let localID = signedUp.account.localID
        hasher.during.withLock {
            $0 = {
                var changes = AccountChanges()
                changes.disabled = true
                _ = try? service.update(project: project, localID: localID, changes: changes)
            }
        }
        #expect(throws: AuthError.userDisabled) {
            try service.signIn(
                project: project,
                email: "ada@example.com",
                password: "right-password",
                clientAddress: "10.0.0.1"
            )
        }
    }
}
