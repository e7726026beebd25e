/// A service subscribed to a project's installation deletions. The signing secret is sealed
/// by the domain layer before it reaches the store.
public struct InstallationWebhookRecord: Sendable, Equatable {
    public var webhookID: String
    public var projectID: String
    public var url: String
    public var sealedSecret: [UInt8]
    public var description: String
    public var createdMilliseconds: Int64

    public init(
        webhookID: String,
        projectID: String,
        url: String,
        sealedSecret: [UInt8],
        description: String,
        createdMilliseconds: Int64
    ) {
        self.webhookID = webhookID
        self.projectID = projectID
        self.url = url
        self.sealedSecret = sealedSecret
        self.description = description
        self.createdMilliseconds = createdMilliseconds
    }
}

private let webhookColumns = "webhook_id, project_id, url, sealed_secret, description, created_ms"

private let selectProjectWebhooks = SQLStatement(
    "SELECT \(webhookColumns) FROM installation_webhooks WHERE project_id = ? ORDER BY created_ms, webhook_id"
)

private let selectWebhook = SQLStatement("SELECT \(webhookColumns) FROM installation_webhooks WHERE webhook_id = ?")

extension StoreReading {
    public func installationWebhooks(projectID: String) throws(StoreError) -> [InstallationWebhookRecord] {
        try connection.query(selectProjectWebhooks, [.text(projectID)]).map(InstallationWebhookRecord.init(row:))
    }

    public func installationWebhook(id: String) throws(StoreError) -> InstallationWebhookRecord? {
        try connection.queryFirst(selectWebhook, [.text(id)]).map(InstallationWebhookRecord.init(row:))
    }
}

private let insertWebhookRow = SQLStatement(
    "INSERT INTO installation_webhooks (\(webhookColumns)) VALUES (?, ?, ?, ?, ?, ?)"
)

private let deleteWebhookRow = SQLStatement("DELETE FROM installation_webhooks WHERE project_id = ? AND webhook_id = ?")

extension WriteTransaction {
    public func insertInstallationWebhook(_ record: InstallationWebhookRecord) throws(StoreError) {
        try connection.execute(
            insertWebhookRow,
            [
                .text(record.webhookID), .text(record.projectID), .text(record.url), .blob(record.sealedSecret),
                .text(record.description), .integer(record.createdMilliseconds),
            ]
        )
    }

    /// Removes the subscription of the project and, with it, its deliveries.
    @discardableResult
    public func deleteInstallationWebhook(projectID: String, id: String) throws(StoreError) -> Bool {
        try connection.execute(deleteWebhookRow, [.text(projectID), .text(id)]) > 0
    }
}

extension InstallationWebhookRecord {
    init(row: SQLRow) {
        self.init(
            webhookID: row.string(0),
            projectID: row.string(1),
            url: row.string(2),
            sealedSecret: row.bytes(3),
            description: row.string(4),
            createdMilliseconds: row.int64(5)
        )
    }
}
