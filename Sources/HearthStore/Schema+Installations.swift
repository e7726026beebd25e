extension Schema {
    /// The installations area's steps (versions in its range; see `Schema`).
    ///
    /// Times are milliseconds since the Unix epoch (`_ms` columns). A deleted installation
    /// leaves the `installations` table and becomes a tombstone, which is kept for good so
    /// that its FID is never handed out again.
    static let installations: [Migration] = [
        Migration(
            version: 100,
            name: "installations, tombstones, deletion webhooks and their deliveries",
            sql: """
                CREATE TABLE installations (
                    project_id TEXT NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
                    fid TEXT NOT NULL,
                    app_id TEXT NOT NULL,
                    refresh_token_hash BYTES NOT NULL,
                    sdk_version TEXT NOT NULL,
                    created_ms BIGINT NOT NULL,
                    last_seen_ms BIGINT NOT NULL,
                    PRIMARY KEY (project_id, fid)
                );
                CREATE INDEX installations_by_last_seen ON installations (project_id, last_seen_ms);
                CREATE TABLE installation_tombstones (
                    project_id TEXT NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
                    fid TEXT NOT NULL,
                    app_id TEXT NOT NULL,
                    deleted_ms BIGINT NOT NULL,
                    cause TEXT NOT NULL,
                    PRIMARY KEY (project_id, fid)
                );
                CREATE INDEX installation_tombstones_by_time
                    ON installation_tombstones (project_id, deleted_ms, fid);
                CREATE TABLE installation_webhooks (
                    webhook_id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
                    url TEXT NOT NULL,
                    sealed_secret BYTES NOT NULL,
                    description TEXT NOT NULL,
                    created_ms BIGINT NOT NULL
                );
                CREATE INDEX installation_webhooks_by_project ON installation_webhooks (project_id);
                CREATE TABLE installation_deliveries (
                    webhook_id TEXT NOT NULL REFERENCES installation_webhooks(webhook_id) ON DELETE CASCADE,
                    fid TEXT NOT NULL,
                    project_id TEXT NOT NULL,
                    state TEXT NOT NULL,
                    attempts BIGINT NOT NULL,
                    next_attempt_ms BIGINT NOT NULL,
                    lease_owner TEXT,
                    lease_until_ms BIGINT,
                    last_attempt_ms BIGINT,
                    last_status BIGINT,
                    last_error TEXT,
                    delivered_ms BIGINT,
                    created_ms BIGINT NOT NULL,
                    PRIMARY KEY (webhook_id, fid)
                );
                CREATE INDEX installation_deliveries_due
                    ON installation_deliveries (next_attempt_ms) WHERE state = 'pending';
                CREATE INDEX installation_deliveries_by_fid ON installation_deliveries (project_id, fid);
                """
        )
    ]
}
