/// A project's signing key as stored. The private key is sealed (encrypted and
/// authenticated) by the domain layer before it reaches the store.
public struct SigningKeyRecord: Sendable, Equatable {
    public var keyID: String
    public var projectID: String
    /// What the key signs: `installations` or `idTokens`.
    public var purpose: String
    /// `ES256` or `RS256`.
    public var algorithm: String
    /// The public key as a JSON Web Key document.
    public var publicJWK: String
    public var sealedPrivateKey: [UInt8]
    public var createdAt: Int64
    /// When the key stopped signing; `nil` while it is the active key.
    public var retiredAt: Int64?
    /// Until when a retired key stays published, so tokens it signed keep verifying.
    public var publishUntil: Int64?

    public init(
        keyID: String,
        projectID: String,
        purpose: String,
        algorithm: String,
        publicJWK: String,
        sealedPrivateKey: [UInt8],
        createdAt: Int64,
        retiredAt: Int64? = nil,
        publishUntil: Int64? = nil
    ) {
        self.keyID = keyID
        self.projectID = projectID
        self.purpose = purpose
        self.algorithm = algorithm
        self.publicJWK = publicJWK
        self.sealedPrivateKey = sealedPrivateKey
        self.createdAt = createdAt
        self.retiredAt = retiredAt
        self.publishUntil = publishUntil
    }
}

private let signingKeyColumns =
    "key_id, project_id, purpose, algorithm, public_jwk, sealed_private_key, created_at, retired_at, publish_until"

private let selectActiveSigningKey = SQLStatement(
    "SELECT \(signingKeyColumns) FROM signing_keys WHERE project_id = ? AND purpose = ? AND retired_at IS NULL"
)

private let selectPublishedKeys = SQLStatement(
    """
    SELECT \(signingKeyColumns) FROM signing_keys
    WHERE retired_at IS NULL OR publish_until > ?
    ORDER BY created_at, key_id
    """
)

private let selectSigningKey = SQLStatement("SELECT \(signingKeyColumns) FROM signing_keys WHERE key_id = ?")

private let selectAnySigningKey = SQLStatement("SELECT key_id FROM signing_keys LIMIT 1")

extension StoreReading {
    /// The key that currently signs for `purpose`, if one was made.
    public func activeSigningKey(projectID: String, purpose: String) throws(StoreError) -> SigningKeyRecord? {
        try connection.queryFirst(
            selectActiveSigningKey,
            [.text(projectID), .text(purpose)]
        ).map(SigningKeyRecord.init(row:))
    }

    /// Every project's keys whose signatures may still be presented at `now`: active keys
    /// and retired keys whose publication window has not ended. Oldest first.
    public func publishedSigningKeys(now: Int64) throws(StoreError) -> [SigningKeyRecord] {
        try connection.query(selectPublishedKeys, [.integer(now)]).map(SigningKeyRecord.init(row:))
    }

    public func signingKey(id: String) throws(StoreError) -> SigningKeyRecord? {
        try connection.queryFirst(selectSigningKey, [.text(id)]).map(SigningKeyRecord.init(row:))
    }

    /// Whether any signing key is stored, retired ones included: each is sealed with the
    /// master key the database was made with.
    public func holdsSigningKeys() throws(StoreError) -> Bool {
        try connection.queryFirst(selectAnySigningKey, []) != nil
    }
}

private let insertSigningKeyRow = SQLStatement(
    "INSERT INTO signing_keys (\(signingKeyColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)

private let retireSigningKeyRow = SQLStatement(
    """
    UPDATE signing_keys SET retired_at = ?, publish_until = ?
    WHERE project_id = ? AND purpose = ? AND retired_at IS NULL
    """
)

private let deleteExpiredSigningKeyRows = SQLStatement(
    "DELETE FROM signing_keys WHERE retired_at IS NOT NULL AND publish_until <= ?"
)

extension WriteTransaction {
    /// Stores a new active key. Throws `.uniqueViolation` if the project already has an
    /// active key for that purpose (another node made one first).
    public func insertSigningKey(_ key: SigningKeyRecord) throws(StoreError) {
        try connection.execute(
            insertSigningKeyRow,
            [
                .text(key.keyID), .text(key.projectID), .text(key.purpose), .text(key.algorithm),
                .text(key.publicJWK), .blob(key.sealedPrivateKey), .integer(key.createdAt),
                .integer(key.retiredAt), .integer(key.publishUntil),
            ]
        )
        try announce(.signingKeys)
    }

    /// Retires the active key for `purpose`; it stays published until `publishUntil`.
    @discardableResult
    public func retireSigningKey(
        projectID: String,
        purpose: String,
        at now: Int64,
        publishUntil: Int64
    ) throws(StoreError) -> Int {
        let retired = try connection.execute(
            retireSigningKeyRow,
            [.integer(now), .integer(publishUntil), .text(projectID), .text(purpose)]
        )
        try announce(.signingKeys)
        return retired
    }

    /// Removes retired keys that no token can present any more.
    @discardableResult
    public func deleteExpiredSigningKeys(now: Int64) throws(StoreError) -> Int {
        try connection.execute(deleteExpiredSigningKeyRows, [.integer(now)])
    }
}

extension SigningKeyRecord {
    init(row: SQLRow) {
        self.init(
            keyID: row.string(0),
            projectID: row.string(1),
            purpose: row.string(2),
            algorithm: row.string(3),
            publicJWK: row.string(4),
            sealedPrivateKey: row.bytes(5),
            createdAt: row.int64(6),
            retiredAt: row.optionalInt64(7),
            publishUntil: row.optionalInt64(8)
        )
    }
}
