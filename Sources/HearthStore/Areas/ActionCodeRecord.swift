/// An action code as stored: only a SHA-256 of the code itself is kept, with what it may do
/// and the state of the account it was made for.
public struct ActionCodeRecord: Sendable, Equatable {
    public var codeHash: [UInt8]
    public var projectID: String
    /// `PASSWORD_RESET`, `VERIFY_EMAIL`, `EMAIL_SIGNIN`, `VERIFY_AND_CHANGE_EMAIL`, `RECOVER_EMAIL`.
    public var operation: String
    /// The account it acts on; `nil` for a sign-in link to an address with no account yet.
    public var localID: String?
    /// The address the code was sent for; the code is void once the account's email differs.
    public var email: String
    /// The address to change to (verify-and-change) or the one to undo (recover).
    public var newEmail: String?
    public var continueURL: String?
    public var language: String?
    public var createdAt: Int64
    public var expiresAt: Int64
    public var consumedAt: Int64?

    public init(
        codeHash: [UInt8],
        projectID: String,
        operation: String,
        localID: String?,
        email: String,
        newEmail: String? = nil,
        continueURL: String? = nil,
        language: String? = nil,
        createdAt: Int64,
        expiresAt: Int64,
        consumedAt: Int64? = nil
    ) {
        self.codeHash = codeHash
        self.projectID = projectID
        self.operation = operation
        self.localID = localID
        self.email = email
        self.newEmail = newEmail
        self.continueURL = continueURL
        self.language = language
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.consumedAt = consumedAt
    }
}

private let actionCodeColumns =
    "code_hash, project_id, operation, local_id, email, new_email, continue_url, language, created_at, expires_at, consumed_at"
private let selectActionCode = SQLStatement("SELECT \(actionCodeColumns) FROM action_codes WHERE code_hash = ?")
private let insertActionCodeRow = SQLStatement(
    "INSERT INTO action_codes (\(actionCodeColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)

extension StoreReading {
    public func actionCode(hash: [UInt8]) throws(StoreError) -> ActionCodeRecord? {
        try connection.queryFirst(selectActionCode, [.blob(hash)]).map(ActionCodeRecord.init(row:))
    }
}

private let consumeActionCodeRow = SQLStatement(
    "UPDATE action_codes SET consumed_at = ? WHERE code_hash = ? AND consumed_at IS NULL"
)

private let deleteExpiredActionCodeRows = SQLStatement(
    """
    DELETE FROM action_codes WHERE code_hash IN (
        SELECT code_hash FROM action_codes WHERE code_hash < ? AND expires_at < ?
        ORDER BY code_hash LIMIT ?
    )
    """
)

extension WriteTransaction {
    public func insertActionCode(_ record: ActionCodeRecord) throws(StoreError) {
        try connection.execute(
            insertActionCodeRow,
            [
                .blob(record.codeHash), .text(record.projectID), .text(record.operation), .text(record.localID),
                .text(record.email), .text(record.newEmail), .text(record.continueURL), .text(record.language),
                .integer(record.createdAt), .integer(record.expiresAt), .integer(record.consumedAt),
            ]
        )
    }

    /// Uses the code up: answers `true` only for the one caller that changed it from unused
    /// to used, so a code works once however many requests race for it.
    public func consumeActionCode(hash: [UInt8], at now: Int64) throws(StoreError) -> Bool {
        try connection.execute(consumeActionCodeRow, [.integer(now), .blob(hash)]) == 1
    }

    /// Deletes codes that expired before `before`, at most `limit` of them. Codes are keyed
    /// by their expiry, so the ones to delete have keys below `keysBelow` (the caller's key
    /// for that time): the search reads that range of the table, not an index, oldest key
    /// first. A code whose key is below the bound but that expires later (keyed by another
    /// rule) is kept.
    @discardableResult
    public func deleteExpiredActionCodes(before: Int64, keysBelow: [UInt8], limit: Int = 10_000) throws(StoreError)
        -> Int
    {
        try connection.execute(deleteExpiredActionCodeRows, [.blob(keysBelow), .integer(before), .integer(limit)])
    }
}

extension ActionCodeRecord {
    init(row: SQLRow) {
        self.init(
            codeHash: row.bytes(0),
            projectID: row.string(1),
            operation: row.string(2),
            localID: row.optionalString(3),
            email: row.string(4),
            newEmail: row.optionalString(5),
            continueURL: row.optionalString(6),
            language: row.optionalString(7),
            createdAt: row.int64(8),
            expiresAt: row.int64(9),
            consumedAt: row.optionalInt64(10)
        )
    }
}
