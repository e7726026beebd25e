extension Schema {
    /// The email actions area's steps (versions 400–499).
    static let emailActions: [Migration] = [
        Migration(
            version: 400,
            name: "action codes",
            sql: """
                CREATE TABLE action_codes (
                    code_hash BYTES PRIMARY KEY,
                    project_id TEXT NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
                    operation TEXT NOT NULL,
                    local_id TEXT,
                    email TEXT NOT NULL,
                    new_email TEXT,
                    continue_url TEXT,
                    language TEXT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    consumed_at BIGINT
                ) KEYED;
                CREATE INDEX action_codes_by_account ON action_codes (project_id, local_id, operation);
                CREATE INDEX action_codes_by_expiry ON action_codes (expires_at);
                """
        ),
        Migration(
            version: 401,
            name: "reset codes voided by the password's change time",
            // A password-reset code made before the account's password last changed is void
            // (checked when the code is used), so nothing looks codes up by account any more;
            // the index put every new code's key on a random page of its own.
            sql: "DROP INDEX action_codes_by_account;"
        ),
        Migration(
            version: 402,
            name: "codes keyed by their expiry",
            // A code's key starts with its expiry time, so expired codes are a range of the
            // table's own key: the expiry index went into every send's write for nothing. Codes
            // made before this version start with their creation time instead, which comes
            // before their expiry; the purge still checks each code's expiry.
            sql: "DROP INDEX action_codes_by_expiry;"
        ),
    ]
}
