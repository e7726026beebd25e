/// Every table of `Schema` that holds a data set, as `hearth export` writes it and `hearth
/// import` reads it: each table's columns in the schema's order, its primary key (export pages
/// through a table by it, so no table is held in memory), and the tables in an order where
/// every table comes after the tables it refers to (import inserts in this order and empties
/// in the reverse one). `TransferCatalogueTests` compares it with a migrated database, so a
/// step that adds a table or a column fails until it is listed here.
///
/// `schema_migrations` is not in it: a data file names its schema steps in its header.
public enum TransferCatalogue {
    /// The tables of `Schema` that hold no data set, so are never moved: the schema's steps,
    /// and `leases`, which name processes running on the database they came from.
    public static let untransferredTables: Set<String> = ["schema_migrations", "leases"]

    /// How a column's values are written: the schema's `TEXT`, `BIGINT`/`INTEGER`, `BYTES`.
    public enum ColumnType: String, Sendable {
        case text
        case integer
        case bytes
    }

    public struct Column: Sendable, Equatable {
        public let name: String
        public let type: ColumnType
    }

    public struct Table: Sendable {
        public let name: String
        /// The area the table belongs to, under which `hearth export` and `import` count rows.
        public let area: String
        public let columns: [Column]
        /// The primary key's columns, in the key's order.
        public let key: [String]

        /// The statements export and import run, made once with the catalogue.
        let selectFirstPage: SQLStatement
        let selectNextPage: SQLStatement
        /// Inserts `TransferCatalogue.rowsPerInsert` rows.
        let insertBatch: SQLStatement
        let deleteAll: SQLStatement
        let count: SQLStatement
        let anyRow: SQLStatement

        init(_ name: String, area: String, key: [String], _ columns: KeyValuePairs<String, ColumnType>) {
            self.name = name
            self.area = area
            self.key = key
            self.columns = columns.map { Column(name: $0.key, type: $0.value) }
            let list = self.columns.map(\.name).joined(separator: ", ")
            let order = key.joined(separator: ", ")
            // Keyset paging: the next page starts after the previous page's last key, which
            // both databases compare as a row value, so each page is one index range.
            let after = "(\(order)) > (\(key.map { _ in "?" }.joined(separator: ", ")))"
            selectFirstPage = SQLStatement("SELECT \(list) FROM \(name) ORDER BY \(order) LIMIT ?")
            selectNextPage = SQLStatement("SELECT \(list) FROM \(name) WHERE \(after) ORDER BY \(order) LIMIT ?")
            insertBatch = SQLStatement(Self.insert(into: name, columns: self.columns, rows: rowsPerInsert))
            deleteAll = SQLStatement("DELETE FROM \(name)")
            count = SQLStatement("SELECT count(*) FROM \(name)")
            anyRow = SQLStatement("SELECT 1 FROM \(name) LIMIT 1")
        }

        public var columnNames: [String] { columns.map(\.name) }

        /// An `INSERT` of `rows` rows, all columns in the catalogue's order: the batch made once,
        /// or a one-off for a table's last, shorter batch.
        func insert(rows: Int) -> SQLStatement {
            rows == rowsPerInsert
                ? insertBatch : SQLStatement(oneOff: Self.insert(into: name, columns: columns, rows: rows))
        }

        private static func insert(into table: String, columns: [Column], rows: Int) -> String {
            let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            return "INSERT INTO \(table) (\(columns.map(\.name).joined(separator: ", "))) VALUES "
                + Array(repeating: row, count: rows).joined(separator: ", ")
        }
    }

    /// Rows one `INSERT` of an import carries: one statement (and on PostgreSQL one round
    /// trip) per batch instead of per row. The widest table (25 columns) binds 1,600 values,
    /// well inside both databases' limits on parameters.
    public static let rowsPerInsert = 64

    public static let tables: [Table] = [
        Table(
            "projects",
            area: "projects",
            key: ["project_id"],
            [
                "project_id": .text, "project_number": .text, "document": .text, "revision": .integer,
                "updated_at": .integer,
            ]
        ),
        Table(
            "signing_keys",
            area: "signing keys",
            key: ["key_id"],
            [
                "key_id": .text, "project_id": .text, "purpose": .text, "algorithm": .text, "public_jwk": .text,
                "sealed_private_key": .bytes, "created_at": .integer, "retired_at": .integer,
                "publish_until": .integer,
            ]
        ),
        Table(
            "admin_credentials",
            area: "admin credentials",
            key: ["credential_id"],
            [
                "credential_id": .text, "project_id": .text, "label": .text, "secret_hash": .bytes,
                "created_at": .integer, "last_used_at": .integer, "revoked_at": .integer,
            ]
        ),
        Table(
            "rate_counters",
            area: "rate counters",
            key: ["bucket", "window_start"],
            ["bucket": .text, "window_start": .integer, "hits": .integer, "expires_at": .integer]
        ),
        Table(
            "accounts",
            area: "accounts",
            key: ["project_id", "local_id"],
            [
                "project_id": .text, "local_id": .text, "email": .text, "email_verified": .integer,
                "password_hash": .text, "password_updated_at": .integer, "display_name": .text, "photo_url": .text,
                "disabled": .integer, "custom_attributes": .text, "language": .text,
                "email_link_sign_in": .integer, "created_at": .integer, "last_login_at": .integer,
                "last_refresh_at": .integer, "valid_since_seconds": .integer, "sessions_revoked_at": .integer,
                "phone_number": .text,
            ]
        ),
        Table(
            "refresh_tokens",
            area: "accounts",
            key: ["token_hash"],
            [
                "token_hash": .bytes, "project_id": .text, "local_id": .text, "auth_time_seconds": .integer,
                "created_at": .integer, "revoked_at": .integer,
            ]
        ),
        Table(
            "action_codes",
            area: "action codes",
            key: ["code_hash"],
            [
                "code_hash": .bytes, "project_id": .text, "operation": .text, "local_id": .text, "email": .text,
                "new_email": .text, "continue_url": .text, "language": .text, "created_at": .integer,
                "expires_at": .integer, "consumed_at": .integer,
            ]
        ),
        Table(
            "mail_templates",
            area: "mail",
            key: ["template_key"],
            ["template_key": .bytes, "source": .text, "created_at": .integer]
        ),
        Table(
            "mail_outbox",
            area: "mail",
            key: ["project_id", "id"],
            [
                "id": .text, "project_id": .text, "kind": .text, "language": .text, "sender": .text,
                "recipient": .text, "reply_to": .text, "subject": .text, "message_id": .text,
                "action_request_type": .text, "action_email": .text, "action_new_email": .text, "state": .text,
                "attempts": .integer, "last_error": .text, "transport": .text, "created_at": .integer,
                "expires_at": .integer, "next_attempt_at": .integer, "claimed_until": .integer, "claimed_by": .text,
                "finished_at": .integer, "template_key": .bytes, "template_values": .text, "sealed_values": .bytes,
            ]
        ),
        Table(
            "mail_bodies",
            area: "mail",
            key: ["id"],
            [
                "id": .text, "html_body": .text, "text_body": .text, "action_code": .text, "action_link": .text,
                "sealed_action": .bytes,
            ]
        ),
        Table(
            "installations",
            area: "installations",
            key: ["project_id", "fid"],
            [
                "project_id": .text, "fid": .text, "app_id": .text, "refresh_token_hash": .bytes,
                "sdk_version": .text, "created_ms": .integer, "last_seen_ms": .integer,
            ]
        ),
        Table(
            "installation_tombstones",
            area: "installations",
            key: ["project_id", "fid"],
            ["project_id": .text, "fid": .text, "app_id": .text, "deleted_ms": .integer, "cause": .text]
        ),
        Table(
            "installation_webhooks",
            area: "webhooks",
            key: ["webhook_id"],
            [
                "webhook_id": .text, "project_id": .text, "url": .text, "sealed_secret": .bytes,
                "description": .text, "created_ms": .integer,
            ]
        ),
        Table(
            "installation_deliveries",
            area: "webhooks",
            key: ["webhook_id", "fid"],
            [
                "webhook_id": .text, "fid": .text, "project_id": .text, "state": .text, "attempts": .integer,
                "next_attempt_ms": .integer, "lease_owner": .text, "lease_until_ms": .integer,
                "last_attempt_ms": .integer, "last_status": .integer, "last_error": .text, "delivered_ms": .integer,
                "created_ms": .integer,
            ]
        ),
    ]

    /// The table named `name`, or `nil` when the catalogue has none.
    public static func table(named name: String) -> Table? { tables.first { $0.name == name } }
}
