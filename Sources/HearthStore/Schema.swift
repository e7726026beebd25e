/// Hearth's schema, every version in order. Append; never edit a released step. Each area
/// keeps its steps in its own file and its own range of versions, so areas grow apart:
/// core 1–99, installations 100–199, accounts 200–299, mail 300–399, email actions 400–499.
public enum Schema {
    public static let migrations: [Migration] =
        (core + installations + accounts + mail + emailActions).sorted { $0.version < $1.version }

    static let core: [Migration] = [
        Migration(
            version: 1,
            name: "projects and signing keys",
            sql: """
                CREATE TABLE projects (
                    project_id TEXT PRIMARY KEY,
                    project_number TEXT NOT NULL UNIQUE,
                    document TEXT NOT NULL,
                    revision BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                );
                CREATE TABLE signing_keys (
                    key_id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
                    purpose TEXT NOT NULL,
                    algorithm TEXT NOT NULL,
                    public_jwk TEXT NOT NULL,
                    sealed_private_key BYTES NOT NULL,
                    created_at BIGINT NOT NULL,
                    retired_at BIGINT,
                    publish_until BIGINT
                );
                CREATE UNIQUE INDEX signing_keys_one_active
                    ON signing_keys (project_id, purpose) WHERE retired_at IS NULL;
                """
        ),
        Migration(
            version: 2,
            name: "admin credentials and rate counters",
            sql: """
                CREATE TABLE admin_credentials (
                    credential_id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
                    label TEXT NOT NULL,
                    secret_hash BYTES NOT NULL,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT,
                    revoked_at BIGINT
                );
                CREATE INDEX admin_credentials_by_project ON admin_credentials (project_id);
                CREATE TABLE rate_counters (
                    bucket TEXT NOT NULL,
                    window_start BIGINT NOT NULL,
                    hits BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    PRIMARY KEY (bucket, window_start)
                ) KEYED;
                CREATE INDEX rate_counters_by_expiry ON rate_counters (expires_at);
                """
        ),
        Migration(
            version: 3,
            name: "leases",
            sql: """
                CREATE TABLE leases (
                    name TEXT PRIMARY KEY,
                    holder TEXT NOT NULL,
                    expires_at BIGINT NOT NULL
                ) KEYED;
                """
        ),
    ]
}
