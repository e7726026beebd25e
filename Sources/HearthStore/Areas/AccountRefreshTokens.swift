/// A refresh token as stored: only a SHA-256 of the token is kept, so a copy of the database
/// cannot be replayed against the token endpoint.
public struct RefreshTokenRecord: Sendable, Equatable {
    public var tokenHash: [UInt8]
    public var projectID: String
    public var localID: String
    /// When the user signed in for the session this token continues (the ID token's `auth_time`).
    public var authTimeSeconds: Int64
    /// When the token was issued (milliseconds).
    public var createdAt: Int64
    /// When a password change, a disabled account or a moved `validSince` ended the session
    /// (bookkeeping for the sweep: whether a token is refused is decided by `createdAt` against
    /// the account's `sessionsRevokedAt`).
    public var revokedAt: Int64?

    public init(
        tokenHash: [UInt8],
        projectID: String,
        localID: String,
        authTimeSeconds: Int64,
        createdAt: Int64,
        revokedAt: Int64? = nil
    ) {
        self.tokenHash = tokenHash
        self.projectID = projectID
        self.localID = localID
        self.authTimeSeconds = authTimeSeconds
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}

private let refreshTokenColumns = "token_hash, project_id, local_id, auth_time_seconds, created_at, revoked_at"

private let selectRefreshTokenWithAccount = SQLStatement(
    """
    SELECT r.token_hash, r.project_id, r.local_id, r.auth_time_seconds, r.created_at, r.revoked_at,
        \(qualifiedAccountColumns)
    FROM refresh_tokens r
    JOIN accounts a ON a.project_id = r.project_id AND a.local_id = r.local_id
    WHERE r.token_hash = ?
    """
)

private let selectRefreshTokens = SQLStatement(
    """
    SELECT \(refreshTokenColumns) FROM refresh_tokens
    WHERE project_id = ? AND local_id = ? ORDER BY created_at DESC
    """
)

extension StoreReading {
    /// The token with this hash together with its account, in one query: the token endpoint's
    /// only read.
    public func refreshTokenWithAccount(hash: [UInt8]) throws(StoreError) -> (RefreshTokenRecord, AccountRecord)? {
        guard
            let row = try connection.queryFirst(selectRefreshTokenWithAccount, [.blob(hash)])
        else { return nil }
        return (RefreshTokenRecord(row: row), AccountRecord(row: row, offset: 6))
    }

    /// Every refresh token of an account, newest first (for tests and administration).
    public func refreshTokens(projectID: String, localID: String) throws(StoreError) -> [RefreshTokenRecord] {
        try connection.query(
            selectRefreshTokens,
            [.text(projectID), .text(localID)]
        ).map { RefreshTokenRecord(row: $0) }
    }
}

private let insertRefreshTokenRow = SQLStatement(
    "INSERT INTO refresh_tokens (\(refreshTokenColumns)) VALUES (?, ?, ?, ?, ?, ?)"
)

private let revokeRefreshTokenRows = SQLStatement(
    """
    UPDATE refresh_tokens SET revoked_at = ?
    WHERE project_id = ? AND local_id = ? AND revoked_at IS NULL AND created_at <= ?
    """
)

private let deleteRevokedRefreshTokenRows = SQLStatement(
    """
    DELETE FROM refresh_tokens WHERE token_hash IN (
        SELECT token_hash FROM refresh_tokens WHERE revoked_at IS NOT NULL AND revoked_at < ? LIMIT ?
    )
    """
)

extension WriteTransaction {
    public func insertRefreshToken(_ record: RefreshTokenRecord) throws(StoreError) {
        try connection.execute(
            insertRefreshTokenRow,
            [
                .blob(record.tokenHash), .text(record.projectID), .text(record.localID),
                .integer(record.authTimeSeconds), .integer(record.createdAt), .integer(record.revokedAt),
            ]
        )
    }

    /// Marks revoked, at `now`, every live refresh token of the account issued at or before
    /// `issuedThrough` (so the sweep forgets it in time); answers how many it marked.
    @discardableResult
    public func revokeRefreshTokens(
        projectID: String,
        localID: String,
        issuedThrough: Int64 = .max,
        at now: Int64
    ) throws(StoreError) -> Int {
        try connection.execute(
            revokeRefreshTokenRows,
            [.integer(now), .text(projectID), .text(localID), .integer(issuedThrough)]
        )
    }

    /// Forgets tokens revoked before `cutoff` (after that they answer "invalid" instead of
    /// "expired"), in batches so a sweep never holds the writer for long.
    @discardableResult
    public func deleteRevokedRefreshTokens(before cutoff: Int64, limit: Int = 10_000) throws(StoreError) -> Int {
        try connection.execute(deleteRevokedRefreshTokenRows, [.integer(cutoff), .integer(limit)])
    }
}

extension RefreshTokenRecord {
    init(row: SQLRow) {
        self.init(
            tokenHash: row.bytes(0),
            projectID: row.string(1),
            localID: row.string(2),
            authTimeSeconds: row.int64(3),
            createdAt: row.int64(4),
            revokedAt: row.optionalInt64(5)
        )
    }
}
