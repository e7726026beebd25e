/// The mail outbox: messages are inserted by the same write that caused them (so a message
/// exists exactly when its cause was committed) and taken by delivery workers with a claim
/// that lapses, so a worker that dies mid-send never strands a message. The statements are
/// plain SQL that SQLite and PostgreSQL both run.
extension WriteTransaction {
    /// Queues a message (and stores its template, the first time one is used).
    public func insertOutboxMessage(_ record: OutboxRecord) throws(StoreError) {
        if let template = record.template, permanentRows?.contains("mail_templates", template.key) != true {
            try connection.execute(
                """
                INSERT INTO mail_templates (template_key, source, created_at) VALUES (?, ?, ?)
                ON CONFLICT (template_key) DO NOTHING
                """,
                [.blob(template.key), .text(template.source), .integer(record.createdAt)]
            )
            // Templates are never deleted: once this commits, later messages need not insert it.
            permanentRows?.note("mail_templates", template.key)
        }
        try connection.execute(
            """
            INSERT INTO mail_outbox (
                id, project_id, kind, language, sender, recipient, reply_to, subject, message_id,
                action_request_type, action_email, action_new_email, state, attempts, last_error, transport,
                created_at, expires_at, next_attempt_at, claimed_until, claimed_by, finished_at,
                template_key, template_values, sealed_values
            ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(record.id), .text(record.projectID), .text(record.kind), .text(record.language),
                .text(record.sender), .text(record.recipient), .text(record.replyTo), .text(record.subject),
                .text(record.messageID), .text(record.action?.requestType), .text(record.action?.email),
                .text(record.action?.newEmail), .text(record.state.rawValue), .integer(record.attempts),
                .text(record.lastError), .text(record.transport), .integer(record.createdAt),
                .integer(record.expiresAt), .integer(record.nextAttemptAt), .integer(record.claimedUntil),
                .text(record.claimedBy), .integer(record.finishedAt), record.template.map { .blob($0.key) } ?? .null,
                .text(record.templateValues), record.sealedValues.map { .blob($0) } ?? .null,
            ]
        )
        let body = [record.htmlBody, record.textBody, record.action?.oobCode, record.action?.oobLink]
        let sealedAction = record.action?.sealed
        guard body.contains(where: { $0 != nil }) || sealedAction != nil else { return }
        try connection.execute(
            """
            INSERT INTO mail_bodies (id, html_body, text_body, action_code, action_link, sealed_action)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [.text(record.id)] + body.map { .text($0) } + [sealedAction.map { .blob($0) } ?? .null]
        )
    }

    /// Marks as failed every due message that is past its deadline or older than
    /// `createdBefore`, and answers how many.
    @discardableResult
    public func expireOutboxMessages(now: Int64, createdBefore: Int64) throws(StoreError) -> Int {
        try connection.execute(
            """
            UPDATE mail_outbox
            SET state = 'failed', finished_at = ?, claimed_until = NULL, claimed_by = NULL,
                last_error = 'not delivered before its deadline' || COALESCE(' (last error: ' || last_error || ')', '')
            WHERE state IN ('queued', 'sending') AND (expires_at <= ? OR created_at < ?)
                AND next_attempt_at <= ?
            """,
            [.integer(now), .integer(now), .integer(createdBefore), .integer(now)]
        )
    }

    /// Takes up to `limit` due messages for `worker` until `claimedUntil`, counting an
    /// attempt for each, and answers them oldest first. Due means queued and past its back-off,
    /// or claimed by a worker whose claim has lapsed.
    ///
    /// One statement, so two workers never take the same message: SQLite runs writes one at
    /// a time; on PostgreSQL the messages are locked as they are chosen, skipping those
    /// another node's claim holds (so nodes claiming at once take different messages instead
    /// of waiting for each other), and the outer condition is re-checked on each locked row.
    public func claimOutboxMessages(
        now: Int64,
        claimedUntil: Int64,
        worker: String,
        limit: Int
    ) throws(StoreError) -> [OutboxRecord] {
        try connection.query(
            connection.dialect == .postgres ? Self.claimOutbox.postgres : Self.claimOutbox.sqlite,
            [
                .integer(now), .integer(limit), .text(worker), .integer(claimedUntil), .integer(claimedUntil),
                .integer(now),
            ]
        ).map(OutboxRecord.init(row:)).sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            .map { record throws(StoreError) in try withBody(record) }
    }

    /// The messages are chosen once, before the update (`MATERIALIZED`): PostgreSQL may
    /// otherwise run a `LIMIT` subquery of `IN` again for each row it updates, and with the
    /// rows locked the second run passes over the first's choice and takes more than the limit.
    private static let claimOutbox = DialectStatement(
        """
        WITH chosen AS MATERIALIZED (
            SELECT project_id, id FROM mail_outbox
            WHERE state IN ('queued', 'sending') AND next_attempt_at <= ?
            ORDER BY next_attempt_at, created_at LIMIT ? \(DialectStatement.lockingChosenRows)
        )
        UPDATE mail_outbox
        SET state = 'sending', attempts = attempts + 1, claimed_by = ?, claimed_until = ?, next_attempt_at = ?
        WHERE (project_id, id) IN (SELECT project_id, id FROM chosen)
            AND state IN ('queued', 'sending') AND next_attempt_at <= ?
        RETURNING \(OutboxRecord.returningColumns)
        """
    )

    /// Records the deliveries of messages of one project, with one statement per up to 32 of
    /// them. `sent` is final, so it is recorded even if a claim lapsed and another worker took
    /// the message meanwhile: that stops further copies.
    public func markOutboxMessagesSent(
        _ ids: [String],
        of projectID: String,
        transport: String,
        at now: Int64
    ) throws(StoreError) {
        var start = ids.startIndex
        while start < ids.endIndex {
            let end = min(start + Self.markSentStatements.count, ids.endIndex)
            var parameters: [SQLValue] = [.text(transport), .integer(now), .text(projectID)]
            parameters.reserveCapacity(3 + end - start)
            for id in ids[start..<end] { parameters.append(.text(id)) }
            try connection.execute(Self.markSentStatements[end - start - 1], parameters)
            start = end
        }
    }

    /// The statements of `markOutboxMessagesSent`, for 1 to 32 messages (texts built once).
    private static let markSentStatements: [String] = (1...32).map { count in
        """
        UPDATE mail_outbox
        SET state = 'sent', transport = ?, finished_at = ?, last_error = NULL,
            claimed_until = NULL, claimed_by = NULL
        WHERE project_id = ? AND id IN (\(Array(repeating: "?", count: count).joined(separator: ", "))) AND state <> 'sent'
        """
    }

    /// Puts a message back in the queue after a failed attempt, if `worker` still holds it.
    public func rescheduleOutboxMessage(
        _ message: OutboxRecord.Key,
        worker: String,
        nextAttemptAt: Int64,
        error: String
    ) throws(StoreError) {
        try connection.execute(
            """
            UPDATE mail_outbox
            SET state = 'queued', next_attempt_at = ?, last_error = ?, claimed_until = NULL, claimed_by = NULL
            WHERE project_id = ? AND id = ? AND state = 'sending' AND claimed_by = ?
            """,
            [.integer(nextAttemptAt), .text(error), .text(message.projectID), .text(message.id), .text(worker)]
        )
    }

    /// Puts a message that `worker` claimed but never tried back in the queue, due at once
    /// (its claim did not count as an attempt).
    public func releaseOutboxClaim(_ message: OutboxRecord.Key, worker: String, at now: Int64) throws(StoreError) {
        try connection.execute(
            """
            UPDATE mail_outbox
            SET state = 'queued', attempts = attempts - 1, next_attempt_at = ?, claimed_until = NULL, claimed_by = NULL
            WHERE project_id = ? AND id = ? AND state = 'sending' AND claimed_by = ?
            """,
            [.integer(now), .text(message.projectID), .text(message.id), .text(worker)]
        )
    }

    /// Gives up on a message, if `worker` still holds it.
    public func failOutboxMessage(_ message: OutboxRecord.Key, worker: String, error: String, at now: Int64)
        throws(StoreError)
    {
        try connection.execute(
            """
            UPDATE mail_outbox
            SET state = 'failed', finished_at = ?, last_error = ?, claimed_until = NULL, claimed_by = NULL
            WHERE project_id = ? AND id = ? AND state = 'sending' AND claimed_by = ?
            """,
            [.integer(now), .text(error), .text(message.projectID), .text(message.id), .text(worker)]
        )
    }

    /// Forgets the bodies, template values and action codes of messages finished before
    /// `finishedBefore` (they hold live links) and not before `finishedSince`, except in
    /// `keepingProject`; answers how many it forgot (a message's template values and its bodies
    /// count one each). `finishedSince` bounds the scan to what finished since an earlier
    /// purge, instead of every finished message still kept.
    @discardableResult
    public func purgeOutboxBodies(
        finishedBefore: Int64,
        finishedSince: Int64 = 0,
        keepingProject: String?
    ) throws(StoreError) -> Int {
        let window: [SQLValue] = [.integer(finishedSince), .integer(finishedBefore), .text(keepingProject ?? "")]
        let values = try connection.execute(
            """
            UPDATE mail_outbox SET template_values = NULL, sealed_values = NULL
            WHERE finished_at >= ? AND finished_at < ? AND project_id <> ?
                AND (template_values IS NOT NULL OR sealed_values IS NOT NULL)
            """,
            window
        )
        return try values
            + connection.execute(
                """
                DELETE FROM mail_bodies WHERE id IN (
                    SELECT id FROM mail_outbox WHERE finished_at >= ? AND finished_at < ? AND project_id <> ?
                )
                """,
                window
            )
    }

    /// Deletes messages finished before `finishedBefore`; answers how many.
    @discardableResult
    public func deleteOutboxMessages(finishedBefore: Int64) throws(StoreError) -> Int {
        // Bodies go first, in case a backend runs without foreign-key cascades.
        try connection.execute(
            """
            DELETE FROM mail_bodies WHERE id IN (
                SELECT id FROM mail_outbox WHERE finished_at IS NOT NULL AND finished_at < ?
            )
            """,
            [.integer(finishedBefore)]
        )
        return try connection.execute(
            "DELETE FROM mail_outbox WHERE finished_at IS NOT NULL AND finished_at < ?",
            [.integer(finishedBefore)]
        )
    }
}

extension StoreReading {
    /// Whether any message is due, so an idle worker can look without writing.
    public func hasDueOutboxMessages(now: Int64) throws(StoreError) -> Bool {
        try connection.queryFirst(
            "SELECT 1 FROM mail_outbox WHERE state IN ('queued', 'sending') AND next_attempt_at <= ? LIMIT 1",
            [.integer(now)]
        ) != nil
    }

    /// A project's messages, newest first, optionally in one state, starting after the
    /// message `afterID` (the last one of the previous page). A message's ID starts with its
    /// creation time, so ID order is age order, and the outbox's key is (project, ID).
    public func outboxMessages(
        projectID: String,
        state: OutboxRecord.State? = nil,
        afterID: String? = nil,
        limit: Int
    ) throws(StoreError) -> [OutboxRecord] {
        var sql = "SELECT \(OutboxRecord.columns) FROM \(OutboxRecord.joined) WHERE o.project_id = ?"
        var parameters: [SQLValue] = [.text(projectID)]
        if let state {
            sql += " AND o.state = ?"
            parameters.append(.text(state.rawValue))
        }
        if let afterID {
            sql += " AND o.id < ?"
            parameters.append(.text(afterID))
        }
        sql += " ORDER BY o.id DESC LIMIT ?"
        parameters.append(.integer(limit))
        return try connection.query(sql, parameters).map(OutboxRecord.init(row:))
    }

    /// One message of a project.
    public func outboxMessage(projectID: String, id: String) throws(StoreError) -> OutboxRecord? {
        try connection.queryFirst(
            "SELECT \(OutboxRecord.columns) FROM \(OutboxRecord.joined) WHERE o.project_id = ? AND o.id = ?",
            [.text(projectID), .text(id)]
        ).map(OutboxRecord.init(row:))
    }

    /// A project's messages that carry an action code still on record, oldest first.
    public func outboxActionMessages(projectID: String) throws(StoreError) -> [OutboxRecord] {
        try connection.query(
            """
            SELECT \(OutboxRecord.columns) FROM \(OutboxRecord.joined)
            WHERE o.project_id = ? AND (b.action_code IS NOT NULL OR b.sealed_action IS NOT NULL)
            ORDER BY o.id
            """,
            [.text(projectID)]
        ).map(OutboxRecord.init(row:))
    }
}

extension WriteTransaction {
    /// `record` with its bodies or template, and action code (claims answer the state row
    /// alone).
    fileprivate func withBody(_ record: OutboxRecord) throws(StoreError) -> OutboxRecord {
        var record = record
        if let key = record.template?.key,
            let row = try connection.queryFirst(
                "SELECT source FROM mail_templates WHERE template_key = ?",
                [.blob(key)]
            )
        {
            record.template?.source = row.string(0)
        }
        guard
            let row = try connection.queryFirst(
                "SELECT html_body, text_body, action_code, action_link, sealed_action FROM mail_bodies WHERE id = ?",
                [.text(record.id)]
            )
        else { return record }
        record.htmlBody = row.optionalString(0)
        record.textBody = row.optionalString(1)
        record.action?.oobCode = row.optionalString(2)
        record.action?.oobLink = row.optionalString(3)
        if case .blob(let sealed) = row[4] { record.action?.sealed = sealed }
        return record
    }
}

extension OutboxRecord {
    /// The columns `init(row:)` reads, from `joined`: the state row `o` and its bodies `b`.
    static let columns = """
        o.id, o.project_id, o.kind, o.language, o.sender, o.recipient, o.reply_to, o.subject, b.html_body, \
        b.text_body, o.message_id, o.action_request_type, o.action_email, o.action_new_email, b.action_code, \
        b.action_link, o.state, o.attempts, o.last_error, o.transport, o.created_at, o.expires_at, \
        o.next_attempt_at, o.claimed_until, o.claimed_by, o.finished_at, o.template_key, t.source, \
        o.template_values, o.sealed_values, b.sealed_action
        """

    static let joined = """
        mail_outbox o LEFT JOIN mail_bodies b ON b.id = o.id \
        LEFT JOIN mail_templates t ON t.template_key = o.template_key
        """

    /// The same columns from the state row alone (bodies `NULL`, template source empty), for
    /// `RETURNING`.
    static let returningColumns = """
        id, project_id, kind, language, sender, recipient, reply_to, subject, NULL, NULL, message_id, \
        action_request_type, action_email, action_new_email, NULL, NULL, state, attempts, last_error, \
        transport, created_at, expires_at, next_attempt_at, claimed_until, claimed_by, finished_at, \
        template_key, '', template_values, sealed_values, NULL
        """

    init(row: SQLRow) {
        self.init(
            id: row.string(0),
            projectID: row.string(1),
            kind: row.string(2),
            language: row.string(3),
            sender: row.string(4),
            recipient: row.string(5),
            replyTo: row.optionalString(6),
            subject: row.string(7),
            messageID: row.string(10),
            createdAt: row.int64(20),
            expiresAt: row.int64(21)
        )
        htmlBody = row.optionalString(8)
        textBody = row.optionalString(9)
        if let requestType = row.optionalString(11) {
            action = Action(
                requestType: requestType,
                email: row.string(12),
                newEmail: row.optionalString(13),
                oobCode: row.optionalString(14),
                oobLink: row.optionalString(15)
            )
        }
        state = State(rawValue: row.string(16)) ?? .failed
        attempts = row.int(17)
        lastError = row.optionalString(18)
        transport = row.optionalString(19)
        nextAttemptAt = row.int64(22)
        claimedUntil = row.optionalInt64(23)
        claimedBy = row.optionalString(24)
        finishedAt = row.optionalInt64(25)
        if case .blob(let key) = row[26] {
            template = Template(key: key, source: row.optionalString(27) ?? "")
        }
        templateValues = row.optionalString(28)
        if case .blob(let sealed) = row[29] { sealedValues = sealed }
        if case .blob(let sealed) = row[30] { action?.sealed = sealed }
    }
}

extension WriteTransaction {
    /// Up to `limit` messages whose template values or action a version that did not seal
    /// them stored in the clear.
    public func outboxMessagesInTheClear(limit: Int) throws(StoreError) -> [OutboxRecord] {
        try connection.query(
            """
            SELECT \(OutboxRecord.columns) FROM \(OutboxRecord.joined)
            WHERE o.template_values IS NOT NULL OR b.action_code IS NOT NULL OR b.action_link IS NOT NULL
            LIMIT ?
            """,
            [.integer(Int64(limit))]
        ).map(OutboxRecord.init(row:))
    }

    /// Stores `record`'s template values and action as it holds them (sealed), dropping their
    /// clear forms.
    public func replaceOutboxValues(with record: OutboxRecord) throws(StoreError) {
        try connection.execute(
            "UPDATE mail_outbox SET template_values = ?, sealed_values = ? WHERE project_id = ? AND id = ?",
            [
                .text(record.templateValues), record.sealedValues.map { .blob($0) } ?? .null,
                .text(record.projectID), .text(record.id),
            ]
        )
        try connection.execute(
            "UPDATE mail_bodies SET action_code = ?, action_link = ?, sealed_action = ? WHERE id = ?",
            [
                .text(record.action?.oobCode), .text(record.action?.oobLink),
                record.action?.sealed.map { .blob($0) } ?? .null, .text(record.id),
            ]
        )
    }
}
