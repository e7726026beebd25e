extension Schema {
    /// The accounts area's steps (versions in its range; see `Schema`).
    ///
    /// Booleans are `BIGINT` 0/1 and times are `BIGINT` (milliseconds unless the column says
    /// seconds), so one text serves SQLite and PostgreSQL. Emails are stored normalised
    /// (lower-case), which makes the unique index the rule "one account per email per project";
    /// several accounts may have no email (NULLs are distinct in both databases). Phone numbers
    /// are stored in E.164 form, one spelling per number, so their unique index is the rule
    /// "one account per phone number per project" in the same way.
    static let accounts: [Migration] = [
        Migration(
            version: 200,
            name: "accounts and refresh tokens",
            sql: """
                CREATE TABLE accounts (
                    project_id TEXT NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
                    local_id TEXT NOT NULL,
                    email TEXT,
                    email_verified BIGINT NOT NULL,
                    password_hash TEXT,
                    password_updated_at BIGINT,
                    display_name TEXT,
                    photo_url TEXT,
                    disabled BIGINT NOT NULL,
                    custom_attributes TEXT,
                    language TEXT,
                    email_link_sign_in BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    last_login_at BIGINT,
                    last_refresh_at BIGINT,
                    valid_since_seconds BIGINT NOT NULL,
                    PRIMARY KEY (project_id, local_id)
                );
                CREATE UNIQUE INDEX accounts_by_email ON accounts (project_id, email);
                CREATE TABLE refresh_tokens (
                    token_hash BYTES PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    local_id TEXT NOT NULL,
                    auth_time_seconds BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    revoked_at BIGINT,
                    FOREIGN KEY (project_id, local_id) REFERENCES accounts (project_id, local_id) ON DELETE CASCADE
                );
                CREATE INDEX refresh_tokens_by_account ON refresh_tokens (project_id, local_id);
                CREATE INDEX refresh_tokens_by_revocation ON refresh_tokens (revoked_at);
                """
        ),
        Migration(
            version: 201,
            name: "accounts: revocation instant in milliseconds",
            sql: """
                ALTER TABLE accounts ADD COLUMN sessions_revoked_at BIGINT;
                """
        ),
        Migration(
            version: 202,
            name: "accounts: phone numbers",
            sql: """
                ALTER TABLE accounts ADD COLUMN phone_number TEXT;
                CREATE UNIQUE INDEX accounts_by_phone_number ON accounts (project_id, phone_number);
                """
        ),
    ]
}
