import FoundationEssentials
public import HearthBase
public import HearthCrypto
public import HearthStore
import Synchronization

/// The signing keys of every project: made on first use, kept sealed in the store under the
/// master key, cached in memory, rotatable. A retired key stays published (and accepted)
/// until every token it signed has expired.
///
/// The published keys are answered from a copy in memory, never from a read, so the key
/// documents verifiers fetch are served even while the database does not answer. The copy is
/// loaded on first use, learns the keys this node makes, is reloaded after this node rotates
/// one, and, once `startReloading()` is called, whenever the store announces that another
/// node did (`StoreTopic.signingKeys`, within a moment on PostgreSQL) and every two seconds
/// (for the command line's rotations on a SQLite file).
public final class KeyRing: Sendable {
    /// What a key signs. Each purpose has its own key and algorithm.
    public enum Purpose: String, Sendable, CaseIterable {
        /// Installation auth tokens, ES256 like Firebase Installations.
        case installations
        /// ID tokens, RS256 like Firebase Auth.
        case idTokens

        var algorithm: String {
            switch self {
            case .installations: "ES256"
            case .idTokens: "RS256"
            }
        }
    }

    /// The key that signs new tokens, ready to use.
    public struct ActiveKey: Sendable {
        public let keyID: String
        public let key: JWT.SigningKey
    }

    private struct CacheKey: Hashable {
        let projectID: String
        let purpose: Purpose
    }

    private struct Cached<Value> {
        let value: Value
        let loadedAt: Int64
    }

    private enum KeySetScope: Hashable {
        case project(String)
        case purpose(Purpose)
    }

    private struct CertificateWindow: Hashable {
        let keyID: String
        let publishedUntil: Int64?
    }

    private struct PublishedKey {
        let projectID: String
        let key: JWT.VerificationKey
        let publishUntil: Int64?
    }

    private let store: any Store
    private let clock: any Clock
    private let masterKey: MasterKey
    /// How long a node trusts its cached active key before asking the store again, so a
    /// rotation made on another node is picked up.
    private let cacheMilliseconds: Int64
    private let active = Mutex<[CacheKey: Cached<ActiveKey>]>([:])
    private let published = Mutex<[String: PublishedKey]>([:])
    private let keySets = Mutex<[KeySetScope: PublishedKeySet]>([:])
    /// Every published key's record, as last loaded (`nil`: not loaded yet).
    private let publishedRecords = Mutex<[SigningKeyRecord]?>(nil)
    private let follower: StoreFollower
    private let certificates = Mutex<[CertificateWindow: String]>([:])

    /// Retired keys stay published this long after the last token they signed expires.
    static let publicationLeewaySeconds: Int64 = 300

    /// - Parameter reloadMilliseconds: how often the reloading thread reloads the published
    ///   keys besides when the store announces a change.
    public init(
        store: any Store,
        clock: any Clock,
        masterKey: MasterKey,
        cacheMilliseconds: Int64 = 60_000,
        reloadMilliseconds: Int = 2_000
    ) {
        self.store = store
        self.clock = clock
        self.masterKey = masterKey
        self.cacheMilliseconds = cacheMilliseconds
        follower = StoreFollower(
            named: "key-reload",
            store: store,
            topic: .signingKeys,
            intervalMilliseconds: reloadMilliseconds
        )
    }

    /// Starts the thread (`key-reload`) that keeps the published keys in memory fresh.
    public func startReloading() {
        follower.start { [self] in try reloadPublishedKeys() }
    }

    /// Stops the reloading thread, waiting for a reload in progress.
    public func stopReloading() {
        follower.stop()
    }

    /// Reads every published key into memory.
    public func reloadPublishedKeys() throws {
        let now = clock.nowSeconds()
        let records = try store.read { try $0.publishedSigningKeys(now: now) }
        publishedRecords.withLock { $0 = records }
    }

    /// Adds a key this node just made to the published keys in memory (at start, one per
    /// project and purpose: cheaper than reloading them all each time).
    private func remember(_ record: SigningKeyRecord) {
        publishedRecords.withLock { records in
            guard var known = records, !known.contains(where: { $0.keyID == record.keyID }) else { return }
            known.append(record)
            records = known
        }
    }

    /// The published keys' records at `now`, loaded first if they never were.
    private func publishedRecords(now: Int64) throws -> [SigningKeyRecord] {
        let loaded: [SigningKeyRecord]
        if let records = publishedRecords.withLock({ $0 }) {
            loaded = records
        } else {
            try reloadPublishedKeys()
            loaded = publishedRecords.withLock { $0 } ?? []
        }
        return loaded.filter { $0.retiredAt == nil || ($0.publishUntil ?? now) > now }
    }

    /// The key that signs `purpose` tokens for the project, made now if it has none.
    public func activeKey(projectID: String, purpose: Purpose) throws -> ActiveKey {
        let cacheKey = CacheKey(projectID: projectID, purpose: purpose)
        let now = clock.nowMilliseconds()
        if let cached = active.withLock({ $0[cacheKey] }), now - cached.loadedAt < cacheMilliseconds {
            return cached.value
        }
        let record =
            try store.read { try $0.activeSigningKey(projectID: projectID, purpose: purpose.rawValue) }
            ?? makeKey(projectID: projectID, purpose: purpose)
        let key = try open(record)
        active.withLock { $0[cacheKey] = Cached(value: key, loadedAt: now) }
        return key
    }

    /// Replaces the active key for `purpose` with a new one. The old key stays published for
    /// `tokenLifetimeSeconds` (plus a small leeway) so tokens it signed keep verifying.
    @discardableResult
    public func rotate(projectID: String, purpose: Purpose, tokenLifetimeSeconds: Int64) throws -> String {
        let record = try sealedNewKey(projectID: projectID, purpose: purpose)
        let now = clock.nowSeconds()
        let publishUntil = now + tokenLifetimeSeconds + Self.publicationLeewaySeconds
        try store.write { transaction in
            try transaction.retireSigningKey(
                projectID: projectID,
                purpose: purpose.rawValue,
                at: now,
                publishUntil: publishUntil
            )
            try transaction.insertSigningKey(record)
        }
        active.withLock { $0[CacheKey(projectID: projectID, purpose: purpose)] = nil }
        published.withLock { $0.removeAll() }
        try? reloadPublishedKeys()
        return record.keyID
    }

    /// The public keys a verifier should accept for the project: the active ones and the
    /// retired ones still inside their publication window, of every purpose.
    public func publishedKeys(projectID: String) throws -> PublishedKeySet {
        let records = try publishedRecords(now: clock.nowSeconds()).filter { $0.projectID == projectID }
        return try keySet(.project(projectID), records)
    }

    /// Every project's published keys for `purpose` (key IDs are unique across projects).
    public func publishedKeys(purpose: Purpose) throws -> PublishedKeySet {
        let records = try publishedRecords(now: clock.nowSeconds()).filter { $0.purpose == purpose.rawValue }
        return try keySet(.purpose(purpose), records)
    }

    /// The self-signed X.509 certificate (PEM) of a published ID-token key, as Google publishes
    /// its keys for verifiers that take certificates: subject and issuer
    /// ``certificateCommonName``, the serial number the key ID (its top bit cleared), valid
    /// over the key's publication window — from when it was made until its window ends, or
    /// with no well-defined end while it signs. Made once per key and window, then cached.
    public func certificate(for key: PublishedKeySet.Key) throws -> String {
        let window = CertificateWindow(keyID: key.keyID, publishedUntil: key.publishedUntil)
        if let pem = certificates.withLock({ $0[window] }) { return pem }
        guard key.purpose == .idTokens, let serialNumber = Hex.decode(key.keyID),
            let record = try publishedRecords(now: clock.nowSeconds()).first(where: { $0.keyID == key.keyID }),
            case .rs256(let privateKey) = try open(record).key
        else {
            throw StoreError(.corruptValue, "signing key \(key.keyID) is not an RS256 ID-token key")
        }
        let certificate = try X509Certificate.selfSigned(
            by: privateKey,
            commonName: Self.certificateCommonName,
            serialNumber: serialNumber,
            notBefore: key.publishedSince,
            notAfter: key.publishedUntil ?? X509Certificate.noWellDefinedExpiration
        )
        let pem = certificate.pemRepresentation
        certificates.withLock { cache in
            // A key's certificate changes once, when it is retired; drop the one it replaces.
            cache = cache.filter { $0.key.keyID != key.keyID }
            cache[window] = pem
        }
        return pem
    }

    /// The subject and issuer of ID-token key certificates, as in Google's own.
    public static let certificateCommonName = "securetoken.system.gserviceaccount.com"

    /// The decoded set for `records`: the one cached for `scope` when no key joined, left or
    /// changed its window since (decoding the JWKs is the costly part).
    private func keySet(_ scope: KeySetScope, _ records: [SigningKeyRecord]) throws -> PublishedKeySet {
        let revision = PublishedKeySet.revision(
            keyIDs: records.map(\.keyID),
            publishedUntil: records.map(\.publishUntil)
        )
        if let cached = keySets.withLock({ $0[scope] }), cached.revision == revision { return cached }
        let keys = try records.map { record in
            var jwk = try JSONDecoder().decode(JSONWebKey.self, from: Data(record.publicJWK.utf8))
            jwk.kid = record.keyID
            jwk.alg = record.algorithm
            jwk.use = "sig"
            guard let purpose = Purpose(rawValue: record.purpose) else {
                throw StoreError(.corruptValue, "signing key \(record.keyID) has unknown purpose \(record.purpose)")
            }
            return PublishedKeySet.Key(
                keyID: record.keyID,
                projectID: record.projectID,
                purpose: purpose,
                jwk: jwk,
                publishedSince: record.createdAt,
                publishedUntil: record.publishUntil
            )
        }
        let set = PublishedKeySet(keys: keys)
        keySets.withLock { $0[scope] = set }
        if scope == .purpose(.idTokens) {
            // Every ID-token key is in this set: certificates of keys outside it are not needed again.
            let current = Set(keys.map(\.keyID))
            certificates.withLock { $0 = $0.filter { current.contains($0.key.keyID) } }
        }
        return set
    }

    /// The public key with this ID, if it belongs to the project and may still be presented.
    public func verificationKey(projectID: String, keyID: String) -> JWT.VerificationKey? {
        let now = clock.nowSeconds()
        if let known = published.withLock({ $0[keyID] }) {
            guard known.projectID == projectID else { return nil }
            if let until = known.publishUntil, until <= now { return nil }
            return known.key
        }
        guard let record = try? store.read({ try $0.signingKey(id: keyID) }), record.projectID == projectID,
            let jwk = try? JSONDecoder().decode(JSONWebKey.self, from: Data(record.publicJWK.utf8)),
            let key = try? Self.verificationKey(jwk: jwk, algorithm: record.algorithm)
        else { return nil }
        published.withLock {
            $0[keyID] = PublishedKey(projectID: projectID, key: key, publishUntil: record.publishUntil)
        }
        if let until = record.publishUntil, until <= now { return nil }
        return key
    }

    // MARK: - Making and opening keys

    private func makeKey(projectID: String, purpose: Purpose) throws -> SigningKeyRecord {
        let record = try sealedNewKey(projectID: projectID, purpose: purpose)
        do {
            try store.write { try $0.insertSigningKey(record) }
            remember(record)
            return record
        } catch let error as StoreError where error.kind == .uniqueViolation {
            // Another node or request made the first key at the same moment: use theirs.
            guard
                let winner = try store.read({
                    try $0.activeSigningKey(projectID: projectID, purpose: purpose.rawValue)
                })
            else { throw error }
            remember(winner)
            return winner
        }
    }

    private func sealedNewKey(projectID: String, purpose: Purpose) throws -> SigningKeyRecord {
        let keyID = Hex.encode(SecureRandom.bytes(count: 20))
        let privatePEM: String
        let publicJWK: JSONWebKey
        switch purpose {
        case .installations:
            let key = ES256.PrivateKey.generate()
            privatePEM = key.pemRepresentation
            publicJWK = key.publicKey.jwk
        case .idTokens:
            let key = RS256.PrivateKey.generate(bits: 2048)
            privatePEM = key.pemRepresentation
            publicJWK = key.publicKey.jwk
        }
        return SigningKeyRecord(
            keyID: keyID,
            projectID: projectID,
            purpose: purpose.rawValue,
            algorithm: purpose.algorithm,
            publicJWK: String(decoding: publicJWK.jsonRepresentation, as: UTF8.self),
            sealedPrivateKey: masterKey.seal(Array(privatePEM.utf8), context: keyID),
            createdAt: clock.nowSeconds()
        )
    }

    /// Whether `masterKey` opens a signing key's sealed private key (the check that a data set
    /// moved between databases is given the master key it was sealed with).
    public static func opens(sealedPrivateKey: [UInt8], keyID: String, with masterKey: MasterKey) -> Bool {
        (try? masterKey.open(sealedPrivateKey, context: keyID)) != nil
    }

    private func open(_ record: SigningKeyRecord) throws -> ActiveKey {
        let pem = String(decoding: try masterKey.open(record.sealedPrivateKey, context: record.keyID), as: UTF8.self)
        switch record.algorithm {
        case "ES256": return ActiveKey(keyID: record.keyID, key: .es256(try ES256.PrivateKey(pem: pem)))
        case "RS256": return ActiveKey(keyID: record.keyID, key: .rs256(try RS256.PrivateKey(pem: pem)))
        default:
            throw StoreError(.corruptValue, "signing key \(record.keyID) has unknown algorithm \(record.algorithm)")
        }
    }

    private static func verificationKey(jwk: JSONWebKey, algorithm: String) throws -> JWT.VerificationKey {
        switch algorithm {
        case "ES256": .es256(try ES256.PublicKey(jwk: jwk))
        case "RS256": .rs256(try RS256.PublicKey(jwk: jwk))
        default: throw StoreError(.corruptValue, "unknown algorithm \(algorithm)")
        }
    }
}
