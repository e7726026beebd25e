/// A user account as stored. The domain layer (`AccountService`) owns every rule about it;
/// here it is plain data. Times are milliseconds since the Unix epoch, except
/// `validSinceSeconds`, which is whole seconds like the `iat` of the tokens it is compared with.
public struct AccountRecord: Sendable, Equatable {
    public var projectID: String
    /// The user's ID (`localId` on the wire, `uid` in the Admin SDKs).
    public var localID: String
    /// Normalised (lower-case); unique within the project.
    public var email: String?
    public var emailVerified: Bool
    /// An Argon2id PHC string; never the password.
    public var passwordHash: String?
    public var passwordUpdatedAt: Int64?
    public var displayName: String?
    public var photoURL: String?
    public var disabled: Bool
    /// Custom claims as a JSON object text (the Admin SDKs' `customAttributes`).
    public var customAttributes: String?
    /// The user's preferred language (BCP 47), for emails and pages.
    public var language: String?
    /// Whether the user has signed in with an email link.
    public var emailLinkSignIn: Bool
    public var createdAt: Int64
    public var lastLoginAt: Int64?
    public var lastRefreshAt: Int64?
    /// ID tokens issued (`iat`) before this second are revoked.
    public var validSinceSeconds: Int64
    /// An E.164 phone number (`+` and digits); unique within the project.
    public var phoneNumber: String?
    /// The latest revocation of the account's sessions: every refresh token issued at or before
    /// this instant is refused; `nil` when none was ever revoked.
    public var sessionsRevokedAt: Int64?

    public init(
        projectID: String,
        localID: String,
        email: String? = nil,
        emailVerified: Bool = false,
        passwordHash: String? = nil,
        passwordUpdatedAt: Int64? = nil,
        displayName: String? = nil,
        photoURL: String? = nil,
        disabled: Bool = false,
        customAttributes: String? = nil,
        language: String? = nil,
        emailLinkSignIn: Bool = false,
        createdAt: Int64,
        lastLoginAt: Int64? = nil,
        lastRefreshAt: Int64? = nil,
        validSinceSeconds: Int64,
        phoneNumber: String? = nil,
        sessionsRevokedAt: Int64? = nil
    ) {
        self.projectID = projectID
        self.localID = localID
        self.email = email
        self.emailVerified = emailVerified
        self.passwordHash = passwordHash
        self.passwordUpdatedAt = passwordUpdatedAt
        self.displayName = displayName
        self.photoURL = photoURL
        self.disabled = disabled
        self.customAttributes = customAttributes
        self.language = language
        self.emailLinkSignIn = emailLinkSignIn
        self.createdAt = createdAt
        self.lastLoginAt = lastLoginAt
        self.lastRefreshAt = lastRefreshAt
        self.validSinceSeconds = validSinceSeconds
        self.phoneNumber = phoneNumber
        self.sessionsRevokedAt = sessionsRevokedAt
    }
}

private let accountColumnNames = [
    "project_id", "local_id", "email", "email_verified", "password_hash", "password_updated_at", "display_name",
    "photo_url", "disabled", "custom_attributes", "language", "email_link_sign_in", "created_at", "last_login_at",
    "last_refresh_at", "valid_since_seconds", "phone_number", "sessions_revoked_at",
]

let accountColumns = accountColumnNames.joined(separator: ", ")

/// `accountColumns` qualified with the table alias `a`, for joins.
let qualifiedAccountColumns = accountColumnNames.map { "a." + $0 }.joined(separator: ", ")

private let accountByLocalID = SQLStatement(
    "SELECT \(accountColumns) FROM accounts WHERE project_id = ? AND local_id = ?"
)
private let accountByEmail = SQLStatement("SELECT \(accountColumns) FROM accounts WHERE project_id = ? AND email = ?")
private let accountByPhoneNumber = SQLStatement(
    "SELECT \(accountColumns) FROM accounts WHERE project_id = ? AND phone_number = ?"
)

private let selectAccountsPage = SQLStatement(
    """
    SELECT \(accountColumns) FROM accounts
    WHERE project_id = ? AND local_id > ? ORDER BY local_id LIMIT ?
    """
)

private let countAccounts = SQLStatement("SELECT COUNT(*) FROM accounts WHERE project_id = ?")

extension StoreReading {
    public func account(projectID: String, localID: String) throws(StoreError) -> AccountRecord? {
        try connection.queryFirst(accountByLocalID, [.text(projectID), .text(localID)]).map { AccountRecord(row: $0) }
    }

    /// The account with this (already normalised) email.
    public func account(projectID: String, email: String) throws(StoreError) -> AccountRecord? {
        try connection.queryFirst(accountByEmail, [.text(projectID), .text(email)]).map { AccountRecord(row: $0) }
    }

    /// The account with this phone number (compared exactly: stored numbers are E.164).
    public func account(projectID: String, phoneNumber: String) throws(StoreError) -> AccountRecord? {
        try connection.queryFirst(
            accountByPhoneNumber,
            [.text(projectID), .text(phoneNumber)]
        ).map { AccountRecord(row: $0) }
    }

    /// Up to `limit` accounts ordered by ID, starting after `afterLocalID` (a page of a listing).
    public func accounts(projectID: String, after afterLocalID: String?, limit: Int) throws(StoreError)
        -> [AccountRecord]
    {
        try connection.query(
            selectAccountsPage,
            [.text(projectID), .text(afterLocalID ?? ""), .integer(limit)]
        ).map { AccountRecord(row: $0) }
    }

    public func accountCount(projectID: String) throws(StoreError) -> Int64 {
        try connection.queryFirst(countAccounts, [.text(projectID)])?.int64(0)
            ?? 0
    }
}

private let insertAccountRow = SQLStatement(
    "INSERT INTO accounts (\(accountColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)

private let updateAccountRow = SQLStatement(
    """
    UPDATE accounts SET email = ?, email_verified = ?, password_hash = ?, password_updated_at = ?,
        display_name = ?, photo_url = ?, disabled = ?, custom_attributes = ?, language = ?,
        email_link_sign_in = ?, created_at = ?, last_login_at = ?, last_refresh_at = ?,
        valid_since_seconds = ?, phone_number = ?, sessions_revoked_at = ?
    WHERE project_id = ? AND local_id = ?
    """
)

private let updateAccountRefresh = SQLStatement(
    """
    UPDATE accounts SET last_refresh_at = ?
    WHERE project_id = ? AND local_id = ? AND (last_refresh_at IS NULL OR last_refresh_at < ?)
    """
)

private let deleteAccountRow = SQLStatement("DELETE FROM accounts WHERE project_id = ? AND local_id = ?")

extension WriteTransaction {
    /// Stores a new account. Throws `.uniqueViolation` when the ID, the email or the phone
    /// number is taken.
    public func insertAccount(_ account: AccountRecord) throws(StoreError) {
        try connection.execute(insertAccountRow, account.sqlValues)
    }

    /// Replaces every stored field of an existing account; answers whether it existed.
    /// Throws `.uniqueViolation` when the new email or phone number is taken.
    @discardableResult
    public func updateAccount(_ account: AccountRecord) throws(StoreError) -> Bool {
        let values = account.sqlValues
        return try connection.execute(updateAccountRow, Array(values[2...]) + [values[0], values[1]]) > 0
    }

    /// Records a token refresh; only moves the time forward.
    public func touchAccountRefresh(projectID: String, localID: String, at now: Int64) throws(StoreError) {
        try connection.execute(updateAccountRefresh, [.integer(now), .text(projectID), .text(localID), .integer(now)])
    }

    /// Deletes the account and, through the foreign key, its refresh tokens.
    @discardableResult
    public func deleteAccount(projectID: String, localID: String) throws(StoreError) -> Bool {
        try connection.execute(deleteAccountRow, [.text(projectID), .text(localID)]) > 0
    }
}

extension AccountRecord {
    init(row: SQLRow) {
        self.init(
            projectID: row.string(0),
            localID: row.string(1),
            email: row.optionalString(2),
            emailVerified: row.bool(3),
            passwordHash: row.optionalString(4),
            passwordUpdatedAt: row.optionalInt64(5),
            displayName: row.optionalString(6),
            photoURL: row.optionalString(7),
            disabled: row.bool(8),
            customAttributes: row.optionalString(9),
            language: row.optionalString(10),
            emailLinkSignIn: row.bool(11),
            createdAt: row.int64(12),
            lastLoginAt: row.optionalInt64(13),
            lastRefreshAt: row.optionalInt64(14),
            validSinceSeconds: row.int64(15),
            phoneNumber: row.optionalString(16),
            sessionsRevokedAt: row.optionalInt64(17)
        )
    }

    /// Reads the account from `row` starting at column `offset` (for joins).
    init(row: SQLRow, offset: Int) {
        self.init(row: SQLRow(values: Array(row.values[offset...])))
    }

    var sqlValues: [SQLValue] {
        [
            .text(projectID), .text(localID), .text(email), .bool(emailVerified), .text(passwordHash),
            .integer(passwordUpdatedAt), .text(displayName), .text(photoURL), .bool(disabled),
            .text(customAttributes), .text(language), .bool(emailLinkSignIn), .integer(createdAt),
            .integer(lastLoginAt), .integer(lastRefreshAt), .integer(validSinceSeconds), .text(phoneNumber),
            .integer(sessionsRevokedAt),
        ]
    }
}
