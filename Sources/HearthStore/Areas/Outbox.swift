private let insertMailTemplate = SQLStatement(
    """
    INSERT INTO mail_templates (template_key, source, created_at) VALUES (?, ?, ?)
    ON CONFLICT (template_key) DO NOTHING
    """
)

private let insertOutboxRow = SQLStatement(
    """
    INSERT INTO mail_outbox (
        id, project_id, kind, language, sender, recipient, reply_to, subject, message_id,
        action_request_type, action_email, action_new_email, state, attempts, last_error, transport,
        created_at, expires_at, next_attempt_at, claimed_until, claimed_by, finished_at,
        template_key, template_values, sealed_values
    ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    """
)

private let insertMailBodies = SQLStatement(
    """
    INSERT INTO mail_bodies (id, html_body, text_body, action_code, action_link, sealed_action)
    VALUES (?, ?, ?, ?, ?, ?)
    """
)

private let expireOutboxRows = SQLStatement(
    """
    UPDATE mail_outbox
    SET state = 'failed', finished_at = ?, claimed_until = NULL, claimed_by = NULL,
        last_error = 'not delivered before its deadline' || COALESCE(' (last error: ' || last_error || ')', '')
    WHERE state IN ('queued', 'sending') AND (expires_at <= ? OR created_at < ?)
        AND next_attempt_at <= ?
    """
)

private let rescheduleOutboxRow = SQLStatement(
    """
    UPDATE mail_outbox
    SET state = 'queued', next_attempt_at = ?, last_error = ?, claimed_until = NULL, claimed_by = NULL
    WHERE project_id = ? AND id = ? AND state = 'sending' AND claimed_by = ?
    """
)

private let releaseOutboxRowClaim = SQLStatement(
    """
    UPDATE mail_outbox
    SET state = 'queued', attempts = attempts - 1, next_attempt_at = ?, claimed_until = NULL, claimed_by = NULL
    WHERE project_id = ? AND id = ? AND state = 'sending' AND claimed_by = ?
    """
)

private let failOutboxRow = SQLStatement(
    """
    UPDATE mail_outbox
    SET state = 'failed', finished_at = ?, last_error = ?, claimed_until = NULL, claimed_by = NULL
    WHERE project_id = ? AND id = ? AND state = 'sending' AND claimed_by = ?
    """
)

private let purgeTemplateValues = SQLStatement(
    """
    UPDATE mail_outbox SET template_values = NULL, sealed_values = NULL
    WHERE finished_at >= ? AND finished_at < ? AND project_id <> ?
        AND (template_values IS NOT NULL OR sealed_values IS NOT NULL)
    """
)

private let purgeMailBodies = SQLStatement(
    """
    DELETE FROM mail_bodies WHERE id IN (
        SELECT id FROM mail_outbox WHERE finished_at >= ? AND finished_at < ? AND project_id <> ?
    )
    """
)

private let deleteFinishedMailBodies = SQLStatement(
    """
    DELETE FROM mail_bodies WHERE id IN (
        SELECT id FROM mail_outbox WHERE finished_at IS NOT NULL AND finished_at < ?
    )
    """
)

private let deleteFinishedOutboxRows = SQLStatement(
    "DELETE FROM mail_outbox WHERE finished_at IS NOT NULL AND finished_at < ?"
)

/// The messages are chosen once, before the update (`MATERIALIZED`): PostgreSQL may
/// otherwise run a `LIMIT` subquery of `IN` again for each row it updates, and with the
/// rows locked the second run passes over the first's choice and takes more than the limit.
private let claimOutbox = SQLStatement(
    """
    WITH chosen AS MATERIALIZED (
        SELECT project_id, id FROM mail_outbox
        WHERE state IN ('queued', 'sending') AND next_attempt_at <= ?
        ORDER BY next_attempt_at, created_at LIMIT ? \(SQLStatement.lockingChosenRows)
    )
    UPDATE mail_outbox
    SET state = 'sending', attempts = attempts + 1, claimed_by = ?, claimed_until = ?, next_attempt_at = ?
    WHERE (project_id, id) IN (SELECT project_id, id FROM chosen)
        AND state IN ('queued', 'sending') AND next_attempt_at <= ?
    RETURNING \(OutboxRecord.returningColumns)
    """
)

/// The statements of `markOutboxMessagesSent`, for 1 to 32 messages.
private let markSentStatements: [SQLStatement] = (1...32).map { count in
    SQLStatement(
        """
        UPDATE mail_outbox
        SET state = 'sent', transport = ?, finished_at = ?, last_error = NULL,
            claimed_until = NULL, claimed_by = NULL
        WHERE project_id = ? AND id IN (\(Array(repeating: "?", count: count).joined(separator: ", "))) AND state <> 'sent'
        """
    )
}

/// The mail outbox: messages are inserted by the same write that caused them (so a message
/// exists exactly when its cause was committed) and taken by delivery workers with a claim
/// that lapses, so a worker that dies mid-send never strands a message. The statements are
/// plain SQL that SQLite and PostgreSQL both run.
extension WriteTransaction {
    /// Queues a message (and stores its template, the first time one is used).
    public func insertOutboxMessage(_ record: OutboxRecord) throws(StoreError) {
        if let template = record.template, permanentRows?.contains("mail_templates", template.key) != true {
            try connection.execute(
                insertMailTemplate,
                [.blob(template.key), .text(template.source), .integer(record.createdAt)]
            )
            // Templates are never deleted: once this commits, later messages need not insert it.
            permanentRows?.note("mail_templates", template.key)
        }
        try connection.execute(
            insertOutboxRow,
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
            insertMailBodies,
            [.text(record.id)] + body.map { .text($0) } + [sealedAction.map { .blob($0) } ?? .null]
        )
    }

    /// Marks as failed every due message that is past its deadline or older than
    /// `createdBefore`, and answers how many.
    @discardableResult
    public func expireOutboxMessages(now: Int64, createdBefore: Int64) throws(StoreError) -> Int {
        try connection.execute(
            expireOutboxRows,
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
            claimOutbox,
            [
                .integer(now), .integer(limit), .text(worker), .integer(claimedUntil), .integer(claimedUntil),
                .integer(now),
            ]
        ).map(OutboxRecord.init(row:)).sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            .map { record throws(StoreError) in try withBody(record) }
    }

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
            let end = min(start + markSentStatements.count, ids.endIndex)
            var parameters: [SQLValue] = [.text(transport), .integer(now), .text(projectID)]
            parameters.reserveCapacity(3 + end - start)
            for id in ids[start..<end] { parameters.append(.text(id)) }
            try connection.execute(markSentStatements[end - start - 1], parameters)
            start = end
        }
    }

    /// Puts a message back in the queue after a failed attempt, if `worker` still holds it.
    public func rescheduleOutboxMessage(
        _ message: OutboxRecord.Key,
        worker: String,
        nextAttemptAt: Int64,
        error: String
    ) throws(StoreError) {
        try connection.execute(
            rescheduleOutboxRow,
            [.integer(nextAttemptAt), .text(error), .text(message.projectID), .text(message.id), .text(worker)]
        )
    }

    /// Puts a message that `worker` claimed but never tried back in the queue, due at once
    /// (its claim did not count as an attempt).
    public func releaseOutboxClaim(_ message: OutboxRecord.Key, worker: String, at now: Int64) throws(StoreError) {
        try connection.execute(
            releaseOutboxRowClaim,
            [.integer(now), .text(message.projectID), .text(message.id), .text(worker)]
        )
    }

    /// Gives up on a message, if `worker` still holds it.
    public func failOutboxMessage(_ message: OutboxRecord.Key, worker: String, error: String, at now: Int64)
        throws(StoreError)
    {
        try connection.execute(
            failOutboxRow,
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
        let values = try connection.execute(purgeTemplateValues, window)
        return try values
            + connection.execute(purgeMailBodies, window)
    }

    /// Deletes messages finished before `finishedBefore`; answers how many.
    @discardableResult
    public func deleteOutboxMessages(finishedBefore: Int64) throws(StoreError) -> Int {
        // Bodies go first, in case a backend runs without foreign-key cascades.
        try connection.execute(deleteFinishedMailBodies, [.integer(finishedBefore)])
        return try connection.execute(deleteFinishedOutboxRows, [.integer(finishedBefore)])
    }
}

private let selectDueOutboxRow = SQLStatement(
    "SELECT 1 FROM mail_outbox WHERE state IN ('queued', 'sending') AND next_attempt_at <= ? LIMIT 1"
)

private let selectOutboxMessage = SQLStatement(
    "SELECT \(OutboxRecord.columns) FROM \(OutboxRecord.joined) WHERE o.project_id = ? AND o.id = ?"
)

private let selectOutboxActionMessages = SQLStatement(
    """
    SELECT \(OutboxRecord.columns) FROM \(OutboxRecord.joined)
    WHERE o.project_id = ? AND (b.action_code IS NOT NULL OR b.sealed_action IS NOT NULL)
    ORDER BY o.id
    """
)

/// The pages `outboxMessages` reads: `[0]` every state, `[1]` one state; then `[0]` from the
/// newest message, `[1]` from after an ID.
private let selectOutboxPages: [[SQLStatement]] = [false, true].map { inOneState in
    [false, true].map { afterID in
        SQLStatement(
            "SELECT \(OutboxRecord.columns) FROM \(OutboxRecord.joined) WHERE o.project_id = ?"
                + (inOneState ? " AND o.state = ?" : "") + (afterID ? " AND o.id < ?" : "")
                + " ORDER BY o.id DESC LIMIT ?"
        )
    }
}

extension StoreReading {
    /// Whether any message is due, so an idle worker can look without writing.
    public func hasDueOutboxMessages(now: Int64) throws(StoreError) -> Bool {
        try connection.queryFirst(selectDueOutboxRow, [.integer(now)]) != nil
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
        var parameters: [SQLValue] = [.text(projectID)]
        if let state { parameters.append(.text(state.rawValue)) }
        if let afterID { parameters.append(.text(afterID)) }
        parameters.append(.integer(limit))
        let page = selectOutboxPages[state == nil ? 0 : 1][afterID == nil ? 0 : 1]
        return try connection.query(page, parameters).map(OutboxRecord.init(row:))
    }

    /// One message of a project.
    public func outboxMessage(projectID: String, id: String) throws(StoreError) -> OutboxRecord? {
        try connection.queryFirst(selectOutboxMessage, [.text(projectID), .text(id)]).map(OutboxRecord.init(row:))
    }

    /// A project's messages that carry an action code still on record, oldest first.
    public func outboxActionMessages(projectID: String) throws(StoreError) -> [OutboxRecord] {
        try connection.query(selectOutboxActionMessages, [.text(projectID)]).map(OutboxRecord.init(row:))
    }
}

private let selectTemplateSource = SQLStatement("SELECT source FROM mail_templates WHERE template_key = ?")

private let selectMailBodies = SQLStatement(
    "SELECT html_body, text_body, action_code, action_link, sealed_action FROM mail_bodies WHERE id = ?"
)

extension WriteTransaction {
    /// `record` with its bodies or template, and action code (claims answer the state row
    /// alone).
    fileprivate func withBody(_ record: OutboxRecord) throws(StoreError) -> OutboxRecord {
        var record = record
        if let key = record.template?.key,
            let row = try connection.queryFirst(selectTemplateSource, [.blob(key)])
        {
            record.template?.source = row.string(0)
        }
        guard
            let row = try connection.queryFirst(selectMailBodies, [.text(record.id)])
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

private let selectOutboxRowsInTheClear = SQLStatement(
    """
    SELECT \(OutboxRecord.columns) FROM \(OutboxRecord.joined)
    WHERE o.template_values IS NOT NULL OR b.action_code IS NOT NULL OR b.action_link IS NOT NULL
    LIMIT ?
    """
)

private let updateOutboxValues = SQLStatement(
    "UPDATE mail_outbox SET template_values = ?, sealed_values = ? WHERE project_id = ? AND id = ?"
)

private let updateMailBodyAction = SQLStatement(
    "UPDATE mail_bodies SET action_code = ?, action_link = ?, sealed_action = ? WHERE id = ?"
)

extension WriteTransaction {
    /// Up to `limit` messages whose template values or action a version that did not seal
    /// them stored in the clear.
    public func outboxMessagesInTheClear(limit: Int) throws(StoreError) -> [OutboxRecord] {
        try connection.query(selectOutboxRowsInTheClear, [.integer(Int64(limit))]).map(OutboxRecord.init(row:))
    }

    /// Stores `record`'s template values and action as it holds them (sealed), dropping their
    /// clear forms.
    public func replaceOutboxValues(with record: OutboxRecord) throws(StoreError) {
        try connection.execute(
            updateOutboxValues,
            [
                .text(record.templateValues), record.sealedValues.map { .blob($0) } ?? .null,
                .text(record.projectID), .text(record.id),
            ]
        )
        try connection.execute(
            updateMailBodyAction,
            [
                .text(record.action?.oobCode), .text(record.action?.oobLink),
                record.action?.sealed.map { .blob($0) } ?? .null, .text(record.id),
            ]
        )
    }
}
