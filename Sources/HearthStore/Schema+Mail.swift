extension Schema {
    /// The mail area's steps (versions in its range; see `Schema`).
    static let mail: [Migration] = [
        Migration(
            version: 300,
            name: "mail outbox",
            // Times are epoch milliseconds. `next_attempt_at` is when a worker may take the
            // message next: for a queued message the end of its back-off, for one being sent
            // the end of its claim (`claimed_until`), after which another worker may take it
            // over. So one index finds every message that is due, in either state; it covers
            // unfinished messages only, so it stays as small as the queue, and a claim reads
            // the oldest due messages straight off it, with no sort.
            // The bodies (and a development message's code) live in their own table: they
            // are written once, while the small state row is updated by every claim and
            // delivery. Kept apart, a state change rewrites a few hundred bytes, not a page.
            sql: """
                CREATE TABLE mail_outbox (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
                    kind TEXT NOT NULL,
                    language TEXT NOT NULL,
                    sender TEXT NOT NULL,
                    recipient TEXT NOT NULL,
                    reply_to TEXT,
                    subject TEXT NOT NULL,
                    message_id TEXT NOT NULL,
                    action_request_type TEXT,
                    action_email TEXT,
                    action_new_email TEXT,
                    state TEXT NOT NULL,
                    attempts BIGINT NOT NULL,
                    last_error TEXT,
                    transport TEXT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    next_attempt_at BIGINT NOT NULL,
                    claimed_until BIGINT,
                    claimed_by TEXT,
                    finished_at BIGINT
                );
                CREATE TABLE mail_bodies (
                    id TEXT PRIMARY KEY REFERENCES mail_outbox(id) ON DELETE CASCADE,
                    html_body TEXT,
                    text_body TEXT,
                    action_code TEXT,
                    action_link TEXT
                );
                CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at, created_at)
                    WHERE state IN ('queued', 'sending');
                CREATE INDEX mail_outbox_by_project ON mail_outbox (project_id, created_at);
                CREATE INDEX mail_outbox_finished ON mail_outbox (finished_at) WHERE finished_at IS NOT NULL;
                """
        ),
        Migration(
            version: 301,
            name: "mail bodies as a template and its values",
            // A message is queued as the template its bodies are rendered from (stored once,
            // under the SHA-256 of its source) and the values that fill it, in the state row:
            // a few hundred bytes per message instead of two rendered documents in a row of
            // their own. `mail_bodies` keeps the bodies of messages queued before, and the
            // codes the development tools show.
            sql: """
                CREATE TABLE mail_templates (
                    template_key BYTES PRIMARY KEY,
                    source TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                ) KEYED;
                ALTER TABLE mail_outbox ADD COLUMN template_key BYTES;
                ALTER TABLE mail_outbox ADD COLUMN template_values TEXT;
                """
        ),
        Migration(
            version: 302,
            name: "outbox keyed by project and message",
            // A message's ID starts with its creation time (fixed-width base 32), so the key
            // (project, ID) lists a project's messages newest first by itself: the per-project
            // index and the index of IDs become one, and queuing a message adds to three
            // B-trees instead of four. Everything that changes a message names its project.
            // The bodies' table loses its foreign key (that needs the ID alone to be unique);
            // its rows go with their messages (purges, clean-up, project deletion). SQLite
            // cannot change a table's key in place, so both tables are rebuilt.
            sql: """
                CREATE TABLE mail_outbox_keyed (
                    id TEXT NOT NULL,
                    project_id TEXT NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
                    kind TEXT NOT NULL,
                    language TEXT NOT NULL,
                    sender TEXT NOT NULL,
                    recipient TEXT NOT NULL,
                    reply_to TEXT,
                    subject TEXT NOT NULL,
                    message_id TEXT NOT NULL,
                    action_request_type TEXT,
                    action_email TEXT,
                    action_new_email TEXT,
                    state TEXT NOT NULL,
                    attempts BIGINT NOT NULL,
                    last_error TEXT,
                    transport TEXT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    next_attempt_at BIGINT NOT NULL,
                    claimed_until BIGINT,
                    claimed_by TEXT,
                    finished_at BIGINT,
                    template_key BYTES,
                    template_values TEXT,
                    PRIMARY KEY (project_id, id)
                );
                INSERT INTO mail_outbox_keyed SELECT
                    id, project_id, kind, language, sender, recipient, reply_to, subject, message_id,
                    action_request_type, action_email, action_new_email, state, attempts, last_error, transport,
                    created_at, expires_at, next_attempt_at, claimed_until, claimed_by, finished_at,
                    template_key, template_values
                FROM mail_outbox ORDER BY project_id, id;
                CREATE TABLE mail_bodies_unbound (
                    id TEXT PRIMARY KEY,
                    html_body TEXT,
                    text_body TEXT,
                    action_code TEXT,
                    action_link TEXT
                );
                INSERT INTO mail_bodies_unbound SELECT id, html_body, text_body, action_code, action_link FROM mail_bodies;
                DROP TABLE mail_bodies;
                DROP TABLE mail_outbox;
                ALTER TABLE mail_outbox_keyed RENAME TO mail_outbox;
                ALTER TABLE mail_bodies_unbound RENAME TO mail_bodies;
                CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at, created_at)
                    WHERE state IN ('queued', 'sending');
                CREATE INDEX mail_outbox_finished ON mail_outbox (finished_at) WHERE finished_at IS NOT NULL;
                """
        ),
        Migration(
            version: 303,
            name: "queued mail values sealed",
            // A message's template values (its link, code included) and the development
            // tools' copy of its action are stored sealed under a key derived from the master
            // key (`HearthCore.MailSeal`); the clear columns stay empty. SQL cannot seal, so
            // values queued before this step are sealed at start-up, where the master key is
            // known (`MailSeal.sealMessagesStoredInTheClear`).
            sql: """
                ALTER TABLE mail_outbox ADD COLUMN sealed_values BYTES;
                ALTER TABLE mail_bodies ADD COLUMN sealed_action BYTES;
                """
        ),
    ]
}
