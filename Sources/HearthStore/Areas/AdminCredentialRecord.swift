/// An admin credential as stored: only a hash of its secret part is kept.
public struct AdminCredentialRecord: Sendable, Equatable {
    public var credentialID: String
    public var projectID: String
    public var label: String
    public var secretHash: [UInt8]
    public var createdAt: Int64
    public var lastUsedAt: Int64?
    public var revokedAt: Int64?

    public init(
        credentialID: String,
        projectID: String,
        label: String,
        secretHash: [UInt8],
        createdAt: Int64,
        lastUsedAt: Int64? = nil,
        revokedAt: Int64? = nil
    ) {
        self.credentialID = credentialID
        self.projectID = projectID
        self.label = label
        self.secretHash = secretHash
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }
}

private let adminCredentialColumns =
    "credential_id, project_id, label, secret_hash, created_at, last_used_at, revoked_at"

private let selectAdminCredential = SQLStatement(
    "SELECT \(adminCredentialColumns) FROM admin_credentials WHERE credential_id = ?"
)

private let selectProjectAdminCredentials = SQLStatement(
    "SELECT \(adminCredentialColumns) FROM admin_credentials WHERE project_id = ? ORDER BY created_at, credential_id"
)

extension StoreReading {
    public func adminCredential(id: String) throws(StoreError) -> AdminCredentialRecord? {
        try connection.queryFirst(selectAdminCredential, [.text(id)]).map(AdminCredentialRecord.init(row:))
    }

    public func adminCredentials(projectID: String) throws(StoreError) -> [AdminCredentialRecord] {
        try connection.query(selectProjectAdminCredentials, [.text(projectID)]).map(AdminCredentialRecord.init(row:))
    }
}

private let insertAdminCredentialRow = SQLStatement(
    "INSERT INTO admin_credentials (\(adminCredentialColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)"
)

private let revokeAdminCredentialRow = SQLStatement(
    "UPDATE admin_credentials SET revoked_at = ? WHERE credential_id = ? AND revoked_at IS NULL"
)

private let touchAdminCredentialRow = SQLStatement(
    "UPDATE admin_credentials SET last_used_at = ? WHERE credential_id = ?"
)

extension WriteTransaction {
    public func insertAdminCredential(_ record: AdminCredentialRecord) throws(StoreError) {
        try connection.execute(
            insertAdminCredentialRow,
            [
                .text(record.credentialID), .text(record.projectID), .text(record.label), .blob(record.secretHash),
                .integer(record.createdAt), .integer(record.lastUsedAt), .integer(record.revokedAt),
            ]
        )
    }

    /// Marks the credential revoked; answers whether it was active before.
    @discardableResult
    public func revokeAdminCredential(id: String, at now: Int64) throws(StoreError) -> Bool {
        try connection.execute(revokeAdminCredentialRow, [.integer(now), .text(id)]) > 0
    }

    public func touchAdminCredential(id: String, at now: Int64) throws(StoreError) {
        try connection.execute(touchAdminCredentialRow, [.integer(now), .text(id)])
    }
}

extension AdminCredentialRecord {
    init(row: SQLRow) {
        self.init(
            credentialID: row.string(0),
            projectID: row.string(1),
            label: row.string(2),
            secretHash: row.bytes(3),
            createdAt: row.int64(4),
            lastUsedAt: row.optionalInt64(5),
            revokedAt: row.optionalInt64(6)
        )
    }
}
