import Dispatch
import Foundation
import HearthBase
import HearthCore
import HearthCrypto
import HearthMail
import HearthStore
import HearthWire
import Synchronization
import Testing

/// A fixed "now" for the store tests.
private let start: Int64 = 1_750_000_000_000

/// The outbox's store area: queueing in the caller's transaction, claims that exclude each
/// other and lapse, outcomes, deadlines and retention.
@Suite struct OutboxTests {
    let directory: TemporaryDirectory
    let store: SQLiteStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteStore(SQLiteStore.Configuration(path: directory.url.appendingPathComponent("mail.db").path))
        try ProjectDirectory(store: store, clock: ManualClock(milliseconds: start)).save(exampleProject())
    }

    func queue(_ count: Int, at now: Int64? = nil, kind: MailKind = .test) throws -> [OutboxRecord] {
        let mail = try TemplateComposer().compose(sampleRequest(kind, language: "en"))
        let now = now ?? start
        return try store.write { transaction in
            try (0..<count).map { _ in try transaction.enqueueMail(mail, sealedWith: testMailSeal, at: now) }
        }
    }

    @Test func aMessageIsQueuedOnlyIfItsTransactionCommits() throws {
        struct Refused: Error {}
        let mail = try TemplateComposer().compose(sampleRequest(.action(.passwordReset), language: "it"))
        #expect(throws: Refused.self) {
            try store.write { transaction in
                try transaction.enqueueMail(mail, sealedWith: testMailSeal, at: start)
                throw Refused()
            }
        }
        #expect(try store.read { try $0.outboxMessages(projectID: DevelopmentSeed.projectID, limit: 10) }.isEmpty)
        #expect(try templateCount() == 0)
        let action = MailAction(
            operation: .passwordReset,
            email: "ada@example.com",
            oobCode: "c0de",
            oobLink: "https://x/y"
        )
        let record = try store.write { try $0.enqueueMail(mail, action: action, sealedWith: testMailSeal, at: start) }
        let stored = try #require(
            try store.read { try $0.outboxMessage(projectID: DevelopmentSeed.projectID, id: record.id) }
        )
        #expect(stored == record)
        #expect(try templateCount() == 1)
        #expect(stored.state == .queued && stored.attempts == 0)
        #expect(stored.messageID == "<\(record.id)@demo-project.hearth.local>")
        #expect(stored.expiresAt == start + 3_600_000)
        // Stored sealed: read back, the code opens with the seal only.
        #expect(stored.action?.oobCode == nil && stored.templateValues == nil)
        #expect(try stored.opened(with: testMailSeal).action?.oobCode == "c0de")
        #expect(throws: MailError.self) { try stored.opened(with: MailSeal(masterKey: MasterKey.generate())) }
        #expect(
            try store.read { try $0.outboxActionMessages(projectID: DevelopmentSeed.projectID) }.map(\.id) == [
                record.id
            ]
        )
    }

    func templateCount() throws -> Int? {
        try store.read {
            try $0.connection.queryFirst(SQLStatement(oneOff: "SELECT count(*) FROM mail_templates"), [])?.int(0)
        }
    }

    @Test func aTemplateInsertedByAGroupThatFailedIsInsertedAgain() throws {
        // The writer skips inserting a template it saw committed; one whose group was rolled
        // back (a `StoreWrite` apply's store error) must not count as stored.
        let mail = try TemplateComposer().compose(sampleRequest(.action(.verifyEmail), language: "en"))
        let failed = DispatchSemaphore(value: 0)
        store.write(
            StoreWrite { _, transaction throws(StoreError) in
                _ = try transaction.enqueueMail(mail, sealedWith: testMailSeal, at: start)
                _ = try transaction.connection.execute(SQLStatement(oneOff: "INSERT INTO no_such_table VALUES (1)"), [])
            },
            completion: { result in
                if case .success = result { Issue.record("the write should have failed") }
                failed.signal()
            }
        )
        failed.wait()
        #expect(try templateCount() == 0)
        let record = try store.write { try $0.enqueueMail(mail, sealedWith: testMailSeal, at: start) }
        #expect(try templateCount() == 1)
        let stored = try #require(
            try store.read { try $0.outboxMessage(projectID: DevelopmentSeed.projectID, id: record.id) }
        )
        #expect(try stored.opened(with: testMailSeal).bodies()?.text == mail.text)
        // Once committed, later messages share it without inserting it again.
        _ = try queue(2, kind: .action(.verifyEmail))
        #expect(try templateCount() == 1)
    }

    @Test func deliveriesAreRecordedTogetherOnlyForTheNamedMessages() throws {
        // More than one statement's worth (32), and one message left out.
        let records = try queue(41)
        let sent = records.dropLast()
        try store.write {
            try $0.markOutboxMessagesSent(
                sent.map(\.id),
                of: DevelopmentSeed.projectID,
                transport: "smtp",
                at: start + 9
            )
        }
        for record in sent {
            let stored = try #require(
                try store.read { try $0.outboxMessage(projectID: record.projectID, id: record.id) }
            )
            #expect(stored.state == .sent && stored.transport == "smtp" && stored.finishedAt == start + 9)
        }
        let left = try #require(
            try store.read { try $0.outboxMessage(projectID: records[40].projectID, id: records[40].id) }
        )
        #expect(left.state == .queued && left.finishedAt == nil)
        // Another project's IDs name nothing here; a message already sent keeps its record.
        try store.write {
            try $0.markOutboxMessagesSent([records[40].id], of: "other-project", transport: "log", at: start + 10)
            try $0.markOutboxMessagesSent(
                [records[0].id],
                of: DevelopmentSeed.projectID,
                transport: "log",
                at: start + 11
            )
        }
        #expect(
            try store.read { try $0.outboxMessage(projectID: records[40].projectID, id: records[40].id) }?.state
                == .queued
        )
        let first = try store.read { try $0.outboxMessage(projectID: records[0].projectID, id: records[0].id) }
        #expect(first?.transport == "smtp" && first?.finishedAt == start + 9)
    }

    @Test func aClaimedMessageIsTakenAgainOnlyAfterItsClaimLapses() throws {
        let record = try queue(1)[0]
        let first = try store.write {
            try $0.claimOutboxMessages(now: start, claimedUntil: start + 5_000, worker: "a", limit: 10)
        }
        #expect(first.map(\.id) == [record.id])
        #expect(first[0].state == .sending && first[0].attempts == 1 && first[0].claimedBy == "a")
        let meanwhile = try store.write {
            try $0.claimOutboxMessages(now: start + 4_999, claimedUntil: start + 9_999, worker: "b", limit: 10)
        }
        #expect(meanwhile.isEmpty)
        // Worker "a" died between "sending" and "sent": "b" takes the same message, same Message-ID.
        let again = try store.write {
            try $0.claimOutboxMessages(now: start + 5_000, claimedUntil: start + 10_000, worker: "b", limit: 10)
        }
        #expect(again.map(\.messageID) == [record.messageID])
        #expect(again[0].attempts == 2 && again[0].claimedBy == "b")
        // A late report from "a" cannot requeue what "b" holds; "sent" always counts.
        try store.write {
            try $0.rescheduleOutboxMessage(record.key, worker: "a", nextAttemptAt: start, error: "late")
        }
        #expect(try store.read { try $0.outboxMessage(projectID: record.projectID, id: record.id) }?.claimedBy == "b")
        try store.write {
            try $0.markOutboxMessagesSent([record.id], of: record.projectID, transport: "smtp", at: start + 6_000)
        }
        let sent = try #require(try store.read { try $0.outboxMessage(projectID: record.projectID, id: record.id) })
        #expect(
            sent.state == .sent && sent.transport == "smtp" && sent.finishedAt == start + 6_000 && sent.claimedBy == nil
        )
        #expect(try !store.read { try $0.hasDueOutboxMessages(now: start + 1_000_000) })
    }

    @Test func concurrentWorkersNeverClaimTheSameMessage() throws {
        let queued = Set(try queue(300).map(\.id))
        let claims = Mutex<[String]>([])
        let store = self.store
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            while true {
                let batch =
                    (try? store.write { transaction in
                        try transaction.claimOutboxMessages(
                            now: start,
                            claimedUntil: start + 60_000,
                            worker: "w\(worker)",
                            limit: 7
                        )
                    }) ?? []
                if batch.isEmpty { break }
                claims.withLock { $0 += batch.map(\.id) }
            }
        }
        let claimed = claims.withLock { $0 }
        #expect(claimed.count == queued.count)
        #expect(Set(claimed) == queued)
    }

    @Test func messagesPastTheirDeadlineFailWithTheLastErrorKept() throws {
        let action = try queue(1, kind: .action(.passwordReset))[0]
        let plain = try queue(1, at: start + 10)[0]
        _ = try store.write {
            try $0.claimOutboxMessages(now: start + 10, claimedUntil: start + 20, worker: "a", limit: 10)
        }
        try store.write {
            try $0.rescheduleOutboxMessage(
                action.key,
                worker: "a",
                nextAttemptAt: start + 3_600_000,
                error: "connection refused"
            )
        }
        try store.write {
            try $0.rescheduleOutboxMessage(
                plain.key,
                worker: "a",
                nextAttemptAt: start + 3_600_000,
                error: "timeout"
            )
        }
        // At the link's end the action message fails; the other is younger than the maximum age.
        let expired = try store.write { try $0.expireOutboxMessages(now: start + 3_600_000, createdBefore: start) }
        #expect(expired == 1)
        let failed = try #require(try store.read { try $0.outboxMessage(projectID: action.projectID, id: action.id) })
        #expect(failed.state == .failed)
        #expect(failed.lastError == "not delivered before its deadline (last error: connection refused)")
        #expect(try store.write { try $0.expireOutboxMessages(now: start + 3_600_000, createdBefore: start + 11) } == 1)
        #expect(
            try store.read { try $0.outboxMessages(projectID: plain.projectID, state: .failed, limit: 10) }.count == 2
        )
    }

    @Test func bodiesOfFinishedMessagesArePurgedAndOldMessagesDeleted() throws {
        let records = try queue(2)
        _ = try store.write { try $0.claimOutboxMessages(now: start, claimedUntil: start + 1, worker: "a", limit: 10) }
        for record in records {
            try store.write {
                try $0.markOutboxMessagesSent([record.id], of: record.projectID, transport: "log", at: start)
            }
        }
        #expect(
            try store.write {
                try $0.purgeOutboxBodies(finishedBefore: start + 1, keepingProject: DevelopmentSeed.projectID)
            } == 0
        )
        #expect(try store.write { try $0.purgeOutboxBodies(finishedBefore: start, keepingProject: nil) } == 0)
        // A purge since a later finish time does not look at these.
        #expect(
            try store.write {
                try $0.purgeOutboxBodies(finishedBefore: start + 1, finishedSince: start + 1, keepingProject: nil)
            } == 0
        )
        #expect(
            try store.write {
                try $0.purgeOutboxBodies(finishedBefore: start + 1, finishedSince: start, keepingProject: nil)
            } == 2
        )
        #expect(try store.write { try $0.purgeOutboxBodies(finishedBefore: start + 1, keepingProject: nil) } == 0)
        let purged = try #require(
            try store.read { try $0.outboxMessage(projectID: records[0].projectID, id: records[0].id) }
        )
        #expect(purged.sealedValues == nil && purged.subject == records[0].subject)
        #expect(try purged.bodies() == nil)
        #expect(try store.write { try $0.deleteOutboxMessages(finishedBefore: start + 1) } == 2)
    }

    @Test func aMessageKeepsTheTemplateItWasQueuedWithAfterTheTemplateChanges() throws {
        func project(_ greeting: String) -> Project {
            exampleProject { project in
                project.settings.mail.setOverride(
                    MailTemplateOverride(html: "<p>\(greeting) %DISPLAY_NAME%: %LINK%</p>", text: "\(greeting) %LINK%"),
                    kind: .action(.passwordReset),
                    language: "en"
                )
            }
        }
        let before = try TemplateComposer().compose(
            sampleRequest(.action(.passwordReset), language: "en", project: project("Hi"))
        )
        let after = try TemplateComposer().compose(
            sampleRequest(.action(.passwordReset), language: "en", project: project("Hey"))
        )
        #expect(before.body.template.key != after.body.template.key)
        let queued = try store.write { transaction in
            [
                try transaction.enqueueMail(before, sealedWith: testMailSeal, at: start),
                try transaction.enqueueMail(before, sealedWith: testMailSeal, at: start),
                try transaction.enqueueMail(after, sealedWith: testMailSeal, at: start),
            ]
        }
        // Read back (as the admin API and a worker's claim do), each renders as it was composed.
        let stored = try queued.map { record in
            try #require(try store.read { try $0.outboxMessage(projectID: record.projectID, id: record.id) })
        }
        for (record, mail) in zip(stored, [before, before, after]) {
            let bodies = try #require(try record.opened(with: testMailSeal).bodies())
            #expect(bodies.html == mail.html && bodies.text == mail.text)
        }
        #expect(
            before.text == "Hi https://example.com/__/auth/action?mode=resetPassword&oobCode=CODE&apiKey=KEY&lang=en"
        )
        let claimed = try store.write {
            try $0.claimOutboxMessages(now: start, claimedUntil: start + 1, worker: "a", limit: 10)
        }
        let expected = Dictionary(uniqueKeysWithValues: zip(queued.map(\.id), [before.text, before.text, after.text]))
        #expect(claimed.count == 3)
        for record in claimed { #expect(try record.opened(with: testMailSeal).bodies()?.text == expected[record.id]) }
        // The template is stored once, however many messages use it; each message keeps values only.
        let templates = try store.read {
            try $0.connection.queryFirst(SQLStatement(oneOff: "SELECT count(*) FROM mail_templates"), [])?.int(0)
        }
        #expect(templates == 2)
        let bodies = try store.read {
            try $0.connection.queryFirst(SQLStatement(oneOff: "SELECT count(*) FROM mail_bodies"), [])?.int(0)
        }
        #expect(bodies == 0)
    }

    @Test func aMessageQueuedRenderedKeepsItsBodies() throws {
        // As messages were queued before bodies were kept as templates and values.
        let record = OutboxRecord(
            id: "0001-rendered",
            projectID: DevelopmentSeed.projectID,
            kind: MailKind.test.rawValue,
            language: "en",
            sender: "noreply@example.com",
            recipient: "ada@example.com",
            subject: "Hello",
            htmlBody: "<p>Hello</p>",
            textBody: "Hello",
            messageID: "<0001-rendered@example.com>",
            createdAt: start,
            expiresAt: start + 60_000
        )
        try store.write { try $0.insertOutboxMessage(record) }
        let stored = try #require(try store.read { try $0.outboxMessage(projectID: record.projectID, id: record.id) })
        #expect(stored.template == nil)
        #expect(try stored.bodies()?.html == "<p>Hello</p>" && stored.bodies()?.text == "Hello")
    }

    @Test func messagesQueuedBeforeTheUpgradeKeepTheirRenderedBodies() throws {
        let path = directory.url.appendingPathComponent("upgraded.db").path
        let before = try SQLiteStore(
            SQLiteStore.Configuration(path: path),
            migrations: Schema.migrations.filter { !(301..<400).contains($0.version) }
        )
        try ProjectDirectory(store: before, clock: ManualClock(milliseconds: start)).save(exampleProject())
        try before.write { transaction in
            // The statements of the version before: the state row, and the bodies in a row of their own.
            try transaction.connection.execute(
                SQLStatement(
                    oneOff: """
                        INSERT INTO mail_outbox (id, project_id, kind, language, sender, recipient, subject, message_id,
                            state, attempts, created_at, expires_at, next_attempt_at)
                        VALUES ('0001-old', ?, 'TEST', 'en', 'noreply@example.com', 'ada@example.com', 'Hello',
                            '<0001-old@example.com>', 'queued', 0, ?, ?, ?)
                        """
                ),
                [.text(DevelopmentSeed.projectID), .integer(start), .integer(start + 60_000), .integer(start)]
            )
            try transaction.connection.execute(
                SQLStatement(
                    oneOff:
                        "INSERT INTO mail_bodies (id, html_body, text_body) VALUES ('0001-old', '<p>Hello</p>', 'Hello')"
                ),
                []
            )
        }
        before.close()
        let after = try SQLiteStore(SQLiteStore.Configuration(path: path))
        defer { after.close() }
        let shown = try #require(
            try after.read { try $0.outboxMessage(projectID: DevelopmentSeed.projectID, id: "0001-old") }
        )
        #expect(try shown.bodies()?.html == "<p>Hello</p>" && shown.bodies()?.text == "Hello")
        let claimed = try after.write {
            try $0.claimOutboxMessages(now: start, claimedUntil: start + 1, worker: "a", limit: 10)
        }
        #expect(try claimed.map { try $0.bodies()?.text } == ["Hello"])
        // The bodies' table has no foreign key since the outbox is keyed by project and ID:
        // deleting the project deletes the bodies of its messages with them.
        #expect(try after.write { try $0.deleteProject(id: DevelopmentSeed.projectID) })
        let bodies = try after.read {
            try $0.connection.queryFirst(SQLStatement(oneOff: "SELECT count(*) FROM mail_bodies"), [])?.int(0)
        }
        #expect(bodies == 0)
    }

    @Test func keyingTheOutboxByProjectThenSealingItsValuesKeepsEveryField() throws {
        // Step 302 rebuilds the outbox and the bodies' table, and start-up seals what earlier
        // versions stored in the clear: a message queued with an action (as the version before
        // sealing wrote it), claimed and put back after a failed attempt reads back the same
        // afterwards, with nothing usable left in the clear.
        let path = directory.url.appendingPathComponent("rekeyed.db").path
        let before = try SQLiteStore(
            SQLiteStore.Configuration(path: path),
            migrations: Schema.migrations.filter { !(302..<400).contains($0.version) }
        )
        try ProjectDirectory(store: before, clock: ManualClock(milliseconds: start)).save(exampleProject())
        let mail = try TemplateComposer().compose(sampleRequest(.action(.verifyAndChangeEmail), language: "it"))
        let id = "0001-old-message"
        try before.write { transaction in
            try transaction.connection.execute(
                SQLStatement(oneOff: "INSERT INTO mail_templates (template_key, source, created_at) VALUES (?, ?, ?)"),
                [.blob(mail.body.template.key), .text(mail.body.template.source), .integer(start)]
            )
            try transaction.connection.execute(
                SQLStatement(
                    oneOff: """
                        INSERT INTO mail_outbox (id, project_id, kind, language, sender, recipient, subject, message_id,
                            action_request_type, action_email, action_new_email, state, attempts, created_at, expires_at,
                            next_attempt_at, template_key, template_values)
                        VALUES (?, ?, ?, 'it', 'noreply@example.com', 'ada@example.org', ?, ?, 'VERIFY_AND_CHANGE_EMAIL',
                            'ada@example.com', 'ada@example.org', 'queued', 0, ?, ?, ?, ?, ?)
                        """
                ),
                [
                    .text(id), .text(DevelopmentSeed.projectID), .text(mail.kind.rawValue), .text(mail.subject),
                    .text("<\(id)@example.com>"), .integer(start), .integer(start + 3_600_000), .integer(start),
                    .blob(mail.body.template.key), .text(mail.body.encodedValues),
                ]
            )
            try transaction.connection.execute(
                SQLStatement(
                    oneOff:
                        "INSERT INTO mail_bodies (id, action_code, action_link) VALUES (?, 'code-1', 'https://example.com/link')"
                ),
                [.text(id)]
            )
            // Claimed once and put back after a failed attempt, as that version recorded it.
            try transaction.connection.execute(
                SQLStatement(
                    oneOff: "UPDATE mail_outbox SET attempts = 1, last_error = 'busy', next_attempt_at = ? WHERE id = ?"
                ),
                [.integer(start + 5_000), .text(id)]
            )
        }
        before.close()
        let after = try SQLiteStore(SQLiteStore.Configuration(path: path))
        defer { after.close() }
        let rekeyed = try #require(
            try after.read { try $0.outboxMessage(projectID: DevelopmentSeed.projectID, id: id) }
        )
        #expect(rekeyed.attempts == 1 && rekeyed.lastError == "busy" && rekeyed.action?.oobCode == "code-1")
        #expect(rekeyed.action?.newEmail == "ada@example.org" && rekeyed.nextAttemptAt == start + 5_000)
        #expect(try rekeyed.bodies()?.text == mail.body.text)

        #expect(try testMailSeal.sealMessagesStoredInTheClear(in: after) == 1)
        #expect(try testMailSeal.sealMessagesStoredInTheClear(in: after) == 0)
        let sealed = try #require(try after.read { try $0.outboxMessage(projectID: DevelopmentSeed.projectID, id: id) })
        #expect(sealed.templateValues == nil && sealed.action?.oobCode == nil && sealed.action?.oobLink == nil)
        #expect(sealed.sealedValues != nil && sealed.action?.sealed != nil)
        let clear = try after.read { transaction in
            try transaction.connection.queryFirst(
                SQLStatement(
                    oneOff: """
                        SELECT count(*) FROM mail_outbox o JOIN mail_bodies b ON b.id = o.id
                        WHERE o.template_values IS NOT NULL OR b.action_code IS NOT NULL OR b.action_link IS NOT NULL
                        """
                ),
                []
            )?.int(0)
        }
        #expect(clear == 0)
        let opened = try sealed.opened(with: testMailSeal)
        #expect(opened.action?.oobCode == "code-1" && opened.action?.oobLink == "https://example.com/link")
        #expect(try opened.bodies()?.text == mail.body.text)
        #expect(opened.attempts == 1 && opened.lastError == "busy" && opened.state == .queued)
    }

    @Test func aStoredTemplateMustMatchItsKey() throws {
        let mail = try TemplateComposer().compose(sampleRequest(.action(.verifyEmail), language: "fa"))
        let template = mail.body.template
        #expect(try MailBodyTemplate.stored(key: template.key, source: template.source) == template)
        #expect(throws: MailError.self) {
            try MailBodyTemplate.stored(key: Array(repeating: 7, count: 32), source: template.source)
        }
        #expect(throws: MailError.self) {
            try MailBody(template: template, encodedValues: #"{"NOT_A_PLACEHOLDER":"x"}"#)
        }
        // The admin API says why it cannot show such a message's bodies.
        var record = OutboxRecord(
            id: "0001-broken",
            projectID: DevelopmentSeed.projectID,
            kind: MailKind.action(.verifyEmail).rawValue,
            language: "fa",
            sender: "noreply@example.com",
            recipient: "ada@example.com",
            subject: mail.subject,
            messageID: "<0001-broken@example.com>",
            createdAt: start,
            expiresAt: start + 60_000
        )
        record.template = OutboxRecord.Template(key: Array(repeating: 7, count: 32), source: template.source)
        record.templateValues = mail.body.encodedValues
        #expect(record.detailJSON["bodiesError"]?.stringValue == "a stored mail template does not match its key")
        #expect(record.detailJSON["html"] == nil && record.detailJSON["bodiesPurged"] == nil)
        // A source written otherwise (another version's JSON) is read as stored, under its own key.
        let respaced = template.source.replacing(#"{"kind":"#, with: #"{ "kind" : "#)
        let stored = try MailBodyTemplate.stored(key: SHA256.hash(utf8Of: respaced), source: respaced)
        #expect(stored.source == respaced && stored.html == template.html && stored.text == template.text)
        #expect(stored.frame == template.frame && stored.key != template.key)
    }

    @Test func listsArePagedNewestFirstAndFilteredByState() throws {
        var ids: [String] = []
        for offset in 0..<5 { ids += try queue(1, at: start + Int64(offset)).map(\.id) }
        let projectID = DevelopmentSeed.projectID
        let first = try store.read { try $0.outboxMessages(projectID: projectID, limit: 2) }
        #expect(first.map(\.id) == [ids[4], ids[3]])
        let next = try store.read {
            try $0.outboxMessages(projectID: projectID, afterID: first[1].id, limit: 10)
        }
        #expect(next.map(\.id) == [ids[2], ids[1], ids[0]])
        #expect(try store.read { try $0.outboxMessages(projectID: projectID, state: .sent, limit: 10) }.isEmpty)
        #expect(try store.read { try $0.outboxMessages(projectID: "other-project", limit: 10) }.isEmpty)
    }
}
