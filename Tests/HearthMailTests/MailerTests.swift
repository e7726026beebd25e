import Foundation
import HearthBase
import HearthCore
import HearthNetwork
import HearthStore
import HearthWire
import Synchronization
import Testing

@testable import HearthMail

/// A transport standing in for the network (outside the unit under test): records what it
/// was given and answers as told.
final class RecordingTransport: MailTransport {
    let delivered = Mutex<[OutgoingMail]>([])
    let failure = Mutex<NetworkError?>(nil)
    /// Runs after each delivery (a test filling the disk meanwhile).
    let afterDelivery = Mutex<(@Sendable () -> Void)?>(nil)
    let delayMilliseconds: Int
    var name: String { "recording" }

    init(delayMilliseconds: Int = 0) { self.delayMilliseconds = delayMilliseconds }

    func deliver(_ mail: OutgoingMail) throws(NetworkError) {
        if delayMilliseconds > 0 { usleep(useconds_t(delayMilliseconds * 1_000)) }
        if let error = failure.withLock({ $0 }) { throw error }
        delivered.withLock { $0.append(mail) }
        afterDelivery.withLock { $0 }?()
    }
}

@Suite struct MailerTests {
    let directory: TemporaryDirectory
    let store: SQLiteStore
    let clock = ManualClock(milliseconds: 1_750_000_000_000)
    let projects: ProjectDirectory
    let transport: RecordingTransport
    let mailer: Mailer

    init() throws {
        try self.init(transport: RecordingTransport())
    }

    init(
        transport: RecordingTransport,
        workers: Int = 2,
        pollMilliseconds: Int = 10,
        databaseDirectory: URL? = nil
    ) throws {
        directory = try TemporaryDirectory()
        let database = (databaseDirectory ?? directory.url).appendingPathComponent("mail.db").path
        store = try SQLiteStore(SQLiteStore.Configuration(path: database))
        projects = try ProjectDirectory(store: store, clock: clock)
        try projects.save(exampleProject())
        var configuration = MailDeliveryConfiguration()
        configuration.retry = RetrySchedule(baseMilliseconds: 1_000, maximumMilliseconds: 8_000)
        configuration.maximumAgeMilliseconds = 60_000
        configuration.claimMilliseconds = 30_000
        configuration.workerCount = workers
        configuration.pollMilliseconds = pollMilliseconds
        self.transport = transport
        mailer = Mailer(
            store: store,
            clock: clock,
            log: Log(minimumLevel: .error),
            projects: projects,
            seal: testMailSeal,
            configuration: configuration
        ) { _ in transport }
    }

    func message(_ id: String) throws -> OutboxRecord {
        try #require(try store.read { try $0.outboxMessage(projectID: DevelopmentSeed.projectID, id: id) })
    }

    @Test func queuedMessagesAreDeliveredAndMarkedSent() throws {
        let record = try mailer.queueTestMessage(
            project: exampleProject(),
            to: "ada@example.com",
            publicURL: "http://h"
        )
        #expect(mailer.deliverDueMessages(worker: "w") == 1)
        let delivered = transport.delivered.withLock { $0 }
        #expect(delivered.map(\.messageID) == [record.messageID])
        #expect(delivered[0].to.address == "ada@example.com")
        let sent = try message(record.id)
        #expect(sent.state == .sent && sent.transport == "recording" && sent.attempts == 1)
        #expect(mailer.deliverDueMessages(worker: "w") == 0)
    }

    @Test func aCleanUpPurgesWhatFinishedSinceThePreviousOneWithAMargin() throws {
        let retention = MailDeliveryConfiguration().bodyRetentionMilliseconds
        func queue() throws -> OutboxRecord {
            try mailer.queueTestMessage(project: exampleProject(), to: "ada@example.com", publicURL: "http://h")
        }
        let first = try queue()
        #expect(mailer.deliverDueMessages(worker: "w") == 1)
        clock.advance(milliseconds: retention + 1)
        mailer.removeFinishedMessages()  // the first after a start looks at every finished message
        #expect(try message(first.id).sealedValues == nil)
        let purgedBefore = clock.nowMilliseconds() - retention
        // Outcomes recorded late, with finish times before the previous purge (another node's
        // clock behind): within the look-back margin they are purged next time; further back,
        // they are left for the record's deletion.
        let late = try queue()
        let later = try queue()
        try store.write { transaction in
            let margin = Mailer.purgeOverlapMilliseconds
            try transaction.markOutboxMessagesSent(
                [late.id],
                of: late.projectID,
                transport: "x",
                at: purgedBefore - margin + 1_000
            )
            try transaction.markOutboxMessagesSent(
                [later.id],
                of: later.projectID,
                transport: "x",
                at: purgedBefore - margin - 1_000
            )
        }
        clock.advance(milliseconds: 60_000)
        mailer.removeFinishedMessages()
        #expect(try message(late.id).sealedValues == nil)
        #expect(try message(later.id).sealedValues != nil)
    }

    @Test func aFailedDeliveryIsRetriedWithBackOffUntilItSucceeds() throws {
        transport.failure.withLock { $0 = NetworkError(.transport, "connection refused") }
        let record = try mailer.queueTestMessage(
            project: exampleProject(),
            to: "ada@example.com",
            publicURL: "http://h"
        )
        let queuedAt = clock.nowMilliseconds()
        mailer.deliverDueMessages(worker: "w")
        var retry = try message(record.id)
        #expect(retry.state == .queued && retry.attempts == 1 && retry.lastError == "connection refused")
        #expect((queuedAt + 500...queuedAt + 1_000).contains(retry.nextAttemptAt))
        #expect(mailer.deliverDueMessages(worker: "w") == 0)
        clock.set(milliseconds: retry.nextAttemptAt)
        mailer.deliverDueMessages(worker: "w")
        retry = try message(record.id)
        #expect(retry.attempts == 2)
        #expect((clock.nowMilliseconds() + 1_000...clock.nowMilliseconds() + 2_000).contains(retry.nextAttemptAt))
        transport.failure.withLock { $0 = nil }
        clock.set(milliseconds: retry.nextAttemptAt)
        mailer.deliverDueMessages(worker: "w")
        let sent = try message(record.id)
        #expect(sent.state == .sent && sent.attempts == 3 && sent.lastError == nil)
        #expect(transport.delivered.withLock { $0.count } == 1)
    }

    @Test func aRefusedMessageFailsAtOnce() throws {
        transport.failure.withLock { $0 = NetworkError(.rejected, "550 mailbox unavailable") }
        let record = try mailer.queueTestMessage(
            project: exampleProject(),
            to: "ada@example.com",
            publicURL: "http://h"
        )
        mailer.deliverDueMessages(worker: "w")
        let failed = try message(record.id)
        #expect(failed.state == .failed && failed.lastError == "550 mailbox unavailable" && failed.attempts == 1)
    }

    @Test func aMessageThatCannotBeDeliveredInTimeFails() throws {
        transport.failure.withLock { $0 = NetworkError(.timeout, "timed out") }
        let record = try mailer.queueTestMessage(
            project: exampleProject(),
            to: "ada@example.com",
            publicURL: "http://h"
        )
        for _ in 0..<20 {
            mailer.deliverDueMessages(worker: "w")
            clock.advance(milliseconds: 8_000)
        }
        let failed = try message(record.id)
        #expect(failed.state == .failed)
        #expect(failed.lastError == "not delivered before its deadline (last error: timed out)")
        #expect((4...9).contains(failed.attempts))
    }

    @Test func severalWorkerThreadsDeliverEveryMessageExactlyOnce() throws {
        let slow = RecordingTransport(delayMilliseconds: 2)
        let tests = try MailerTests(transport: slow, workers: 4)
        var queued: [String] = []
        for index in 0..<60 {
            queued.append(
                try tests.mailer.queueTestMessage(
                    project: exampleProject(),
                    to: "user\(index)@example.com",
                    publicURL: "http://h"
                ).messageID
            )
        }
        tests.mailer.start()
        defer { tests.mailer.stop() }
        let deadline = Date().addingTimeInterval(30)
        while slow.delivered.withLock({ $0.count }) < queued.count && Date() < deadline { usleep(20_000) }
        let delivered = slow.delivered.withLock { $0.map(\.messageID) }
        #expect(delivered.count == queued.count)
        #expect(Set(delivered) == Set(queued))
    }

    /// A message as a request would queue it: composed, then claimed by the mailer (which
    /// answers it unchanged when not running).
    func composedMessage(to recipient: String) throws -> OutboxRecord {
        let mail = try mailer.composer.compose(
            MailRequest(kind: .test, project: exampleProject(), recipient: recipient)
        )
        var record = WriteTransaction.outboxRecord(for: mail, sealedWith: testMailSeal, at: clock.nowMilliseconds())
        mailer.claim(&record)
        return record
    }

    @Test func aHandedOverMessageIsSentAtOnceWithoutAClaimingWrite() throws {
        // Workers look in the outbox only once a minute here: only the hand-over can be quick.
        let tests = try MailerTests(transport: RecordingTransport(), pollMilliseconds: 60_000)
        tests.mailer.start()
        defer { tests.mailer.stop() }
        let record = try tests.composedMessage(to: "ada@example.com")
        #expect(record.state == .sending && record.attempts == 1 && record.claimedBy?.hasSuffix("#direct") == true)
        try tests.store.write { try $0.insertOutboxMessage(record) }
        // Stored claimed: no other worker (here or on another node) takes it meanwhile.
        #expect(tests.mailer.deliverDueMessages(worker: "elsewhere") == 0)
        tests.mailer.deliver(QueuedMail(record: record))
        let deadline = Date().addingTimeInterval(10)
        while try tests.message(record.id).state != .sent && Date() < deadline { usleep(5_000) }
        let sent = try tests.message(record.id)
        #expect(sent.state == .sent && sent.attempts == 1 && sent.claimedBy == nil && sent.transport == "recording")
        #expect(tests.transport.delivered.withLock { $0.map(\.messageID) } == [record.messageID])
    }

    @Test func aHandOverCostsItsOutcomeWriteAndNothingElse() throws {
        // Before, every hand-over also woke the clean-up worker, which then wrote to the store.
        let tests = try MailerTests(transport: RecordingTransport(), pollMilliseconds: 60_000)
        tests.mailer.start()
        defer { tests.mailer.stop() }
        usleep(200_000)  // the workers' first rounds (the clean-up's first write) are over
        let writesBefore = tests.store.statistics.writes
        for index in 0..<5 {
            let record = try tests.composedMessage(to: "ada\(index)@example.com")
            try tests.store.write { try $0.insertOutboxMessage(record) }
            tests.mailer.deliver(QueuedMail(record: record))
            let deadline = Date().addingTimeInterval(10)
            while try tests.message(record.id).state != .sent && Date() < deadline { usleep(2_000) }
            #expect(try tests.message(record.id).state == .sent)
        }
        usleep(100_000)  // a stray write would have landed by now
        // Five inserts (this test's own) and five outcome writes.
        #expect(tests.store.statistics.writes - writesBefore == 10)
    }

    @Test func aHandOverIsSentBetweenBatchesOfABacklog() throws {
        // One worker, busy with a backlog in the outbox: a hand-over wakes only one worker, so
        // that worker must take it between the backlog's batches, not after all of them.
        let slow = RecordingTransport(delayMilliseconds: 10)
        let tests = try MailerTests(transport: slow, workers: 1, pollMilliseconds: 60_000)
        for index in 0..<100 {
            try tests.mailer.queueTestMessage(
                project: exampleProject(),
                to: "b\(index)@example.com",
                publicURL: "http://h"
            )
        }
        tests.mailer.start()
        defer { tests.mailer.stop() }
        var deadline = Date().addingTimeInterval(10)
        while slow.delivered.withLock({ $0.isEmpty }) && Date() < deadline { usleep(1_000) }
        let record = try tests.composedMessage(to: "urgent@example.com")
        try tests.store.write { try $0.insertOutboxMessage(record) }
        tests.mailer.deliver(QueuedMail(record: record))
        deadline = Date().addingTimeInterval(30)
        while slow.delivered.withLock({ $0.count }) < 101 && Date() < deadline { usleep(5_000) }
        let order = slow.delivered.withLock { $0.map(\.messageID) }
        let position = try #require(order.firstIndex(of: record.messageID))
        #expect(position < 3 * MailDeliveryConfiguration().batchSize, "sent at \(position) of \(order.count)")
    }

    @Test func aHandedOverMessageThatIsNeverSentGoesOutOnceItsClaimLapses() throws {
        mailer.start()
        let record = try composedMessage(to: "ada@example.com")
        try store.write { try $0.insertOutboxMessage(record) }
        mailer.stop()  // the node "dies" between the commit and the hand-over
        #expect(mailer.deliverDueMessages(worker: "w") == 0)
        clock.advance(milliseconds: 30_001)
        #expect(mailer.deliverDueMessages(worker: "w") == 1)
        let sent = try message(record.id)
        #expect(sent.state == .sent && sent.attempts == 2)
    }

    @Test func aHandedOverMessageThatWaitedTooLongIsLeftToItsClaim() throws {
        mailer.isRunning.store(true, ordering: .relaxed)  // hand-overs accepted, no worker runs
        let record = try composedMessage(to: "ada@example.com")
        try store.write { try $0.insertOutboxMessage(record) }
        mailer.deliver(QueuedMail(record: record))
        clock.advance(milliseconds: 15_001)  // less than half of its 30 s claim left
        #expect(mailer.deliverHandedOverMessages() == 1)
        #expect(transport.delivered.withLock { $0.isEmpty })
        #expect(try message(record.id).state == .sending)
        clock.advance(milliseconds: 15_000)
        #expect(mailer.deliverDueMessages(worker: "w") == 1)
        #expect(transport.delivered.withLock { $0.map(\.messageID) } == [record.messageID])
    }

    @Test func aBatchSentTooSlowlyForItsClaimLeavesTheRestToTheClaimAndSendsNothingTwice() throws {
        let clock = clock
        // Each delivery takes 10 s of the 30 s claim: after two, less than half of it is left.
        transport.afterDelivery.withLock { $0 = { clock.advance(milliseconds: 10_000) } }
        let queued = try (0..<3).map { index in
            try mailer.queueTestMessage(project: exampleProject(), to: "ada\(index)@example.com", publicURL: "http://h")
        }
        #expect(mailer.deliverDueMessages(worker: "slow") == 3)
        #expect(transport.delivered.withLock { $0.count } == 2)
        let states = try queued.map { try message($0.id).state }
        #expect(states.filter { $0 == .sent }.count == 2 && states.filter { $0 == .sending }.count == 1)
        // Nobody takes the third while its claim holds; once it lapses, it is sent once.
        #expect(mailer.deliverDueMessages(worker: "other") == 0)
        clock.advance(milliseconds: 10_001)
        #expect(mailer.deliverDueMessages(worker: "other") == 1)
        let delivered = transport.delivered.withLock { $0.map(\.messageID) }
        #expect(delivered.count == 3 && Set(delivered) == Set(queued.map(\.messageID)))
    }

    @Test func aHandedOverMessageWithHalfItsClaimLeftIsSent() throws {
        mailer.isRunning.store(true, ordering: .relaxed)
        let record = try composedMessage(to: "ada@example.com")
        try store.write { try $0.insertOutboxMessage(record) }
        mailer.deliver(QueuedMail(record: record))
        clock.advance(milliseconds: 15_000)
        #expect(mailer.deliverHandedOverMessages() == 1)
        #expect(try message(record.id).state == .sent)
    }

    @Test func aHandedOverMessageThatFailsIsRetriedFromTheOutbox() throws {
        mailer.isRunning.store(true, ordering: .relaxed)  // hand-overs accepted, no worker runs
        transport.failure.withLock { $0 = NetworkError(.transport, "connection refused") }
        let record = try composedMessage(to: "ada@example.com")
        try store.write { try $0.insertOutboxMessage(record) }
        mailer.deliver(QueuedMail(record: record))
        #expect(mailer.deliverHandedOverMessages() == 1)
        let retry = try message(record.id)
        #expect(retry.state == .queued && retry.attempts == 1 && retry.lastError == "connection refused")
        #expect(retry.claimedBy == nil)
        transport.failure.withLock { $0 = nil }
        clock.advance(milliseconds: 1_000)
        #expect(mailer.deliverDueMessages(worker: "w") == 1)
        let sent = try message(record.id)
        #expect(sent.state == .sent && sent.attempts == 2)
    }

    @Test func aHandOverFromTheStoresOwnThreadAfterAStopDoesNotWaitForTheStore() throws {
        mailer.start()
        let record = try composedMessage(to: "ada@example.com")
        mailer.stop()
        // As the deferred sendOobCode route does: hand over from the write's completion, which
        // runs on the store's thread. Giving the claim back must not wait for that thread.
        let handedOver = DispatchSemaphore(value: 0)
        store.write(
            { try $0.insertOutboxMessage(record) },
            completion: { [mailer] _ in
                mailer.deliver(QueuedMail(record: record))
                handedOver.signal()
            }
        )
        try #require(handedOver.wait(timeout: .now() + 10) == .success)
        try store.write { _ in }  // applied after the queued release
        #expect(try message(record.id).state == .queued)
    }

    @Test func messagesHandedToAStoppedMailerGoBackToTheOutbox() throws {
        mailer.start()
        let record = try composedMessage(to: "ada@example.com")
        try store.write { try $0.insertOutboxMessage(record) }
        mailer.stop()
        // Queues the release without waiting (it may run on the store's thread).
        mailer.deliver(QueuedMail(record: record))
        try store.write { _ in }  // applied after the queued release
        let released = try message(record.id)
        #expect(released.state == .queued && released.attempts == 0 && released.claimedBy == nil)
        #expect(try composedMessage(to: "bob@example.com").state == .queued)  // stopped: not claimed
        #expect(mailer.deliverDueMessages(worker: "w") == 1)
        #expect(try message(record.id).state == .sent)
    }

    @Test func sampleActionEmailsCarryASampleLinkAndNoAction() throws {
        let record = try mailer.queueTestMessage(
            project: exampleProject(),
            to: "ada@example.com",
            kind: .action(.verifyAndChangeEmail),
            languages: LanguagePreferences(acceptLanguage: "fa-IR"),
            publicURL: "https://auth.example.com"
        )
        #expect(record.language == "fa" && record.kind == "VERIFY_AND_CHANGE_EMAIL" && record.action == nil)
        #expect(
            try record.opened(with: testMailSeal).bodies()?.text.contains(
                "https://auth.example.com/__/auth/action?mode=verifyAndChangeEmail&oobCode=SAMPLE"
            ) == true
        )
    }

    @Test func anOutgoingMessageNamesItsActionLinkAndRendersItsBodiesAsStored() throws {
        let project = exampleProject { project in
            project.settings.mail.templates = [
                "PASSWORD_RESET": [
                    "en": MailTemplateOverride(
                        subject: "Reset",
                        html: "<p>Help: https://help.example/faq</p><a href=\"%LINK%\">reset</a>",
                        text: "Help: https://help.example/faq\nReset: %LINK%"
                    )
                ]
            ]
        }
        let link = "https://auth.example.com/__/auth/action?mode=resetPassword&oobCode=abc"
        var request = MailRequest(
            kind: .action(.passwordReset),
            project: project,
            recipient: "ada@example.com",
            link: link
        )
        request.languages = LanguagePreferences(explicit: "en")
        let record = try WriteTransaction.outboxRecord(
            for: try mailer.composer.compose(request),
            sealedWith: testMailSeal,
            at: clock.nowMilliseconds()
        ).opened(with: testMailSeal)
        let outgoing = try OutgoingMail(record)
        // The link the message was queued with, not the first one its text shows.
        #expect(outgoing.link == link)
        let stored = try #require(try record.bodies())
        #expect(outgoing.text == stored.text && outgoing.html == stored.html)
        #expect(outgoing.text.hasPrefix("Help: https://help.example/faq"))

        // A message queued rendered (before templates were stored) keeps its bodies; its link
        // is the first web link of its text.
        var rendered = record
        rendered.template = nil
        rendered.templateValues = nil
        rendered.htmlBody = "<p>old</p>"
        rendered.textBody = "Open https://old.example/x now"
        let old = try OutgoingMail(rendered)
        #expect(old.link == "https://old.example/x" && old.html == "<p>old</p>")
        rendered.htmlBody = nil
        #expect(throws: MailError.self) { try OutgoingMail(rendered) }
    }

    /// A message handed over with the mail it was made from is the same message as the one
    /// read back from its stored record: addresses (display names and reply-to included),
    /// bodies and wire form.
    @Test func aMessageSentFromItsComposedMailIsTheStoredMessage() throws {
        let project = exampleProject { project in
            project.settings.mail.replyTo = "Support Desk <support@example.com>"
            project.settings.appName = "Ex\u{e4}mple \"App\""
        }
        var request = MailRequest(
            kind: .action(.passwordReset),
            project: project,
            recipient: "ada@example.com",
            link: "https://auth.example.com/__/auth/action?mode=resetPassword&oobCode=abc"
        )
        request.displayName = "Ada \"Countess\" Lovelace"
        request.languages = LanguagePreferences(explicit: "it")
        let composed = try mailer.composer.compose(request)
        let record = try WriteTransaction.outboxRecord(
            for: composed,
            sealedWith: testMailSeal,
            at: clock.nowMilliseconds()
        )
        .opened(with: testMailSeal)
        let fromComposed = try OutgoingMail(record, composed: composed)
        let fromRecord = try OutgoingMail(record)
        #expect(fromComposed == fromRecord)
        #expect(fromComposed.mimeRepresentation() == fromRecord.mimeRepresentation())
        #expect(fromComposed.to.displayName == "Ada \"Countess\" Lovelace")
        #expect(fromComposed.replyTo?.address == "support@example.com")
    }

    @Test func theSMTPURLOfTheCommandLineIsReadWithItsOptions() throws {
        let settings = try MailDeliveryConfiguration.smtpSettings(
            commandLineURL: "smtp://us%40er:p%3Ass@mail.example.com:587?starttls=required&verify=false&timeout=12"
        )
        #expect(settings.url == "smtp://us%40er:p%3Ass@mail.example.com:587")
        #expect(settings.startTls == .required && settings.verifyCertificate == false && settings.timeoutSeconds == 12)
        var configuration = MailDeliveryConfiguration()
        configuration.environment = ["HEARTH_SMTP_PASSWORD": "from-env"]
        let smtp = configuration.smtpConfiguration(settings)
        #expect(smtp.url == "smtp://mail.example.com:587")
        #expect(smtp.username == "us@er" && smtp.password == "p:ss")
        #expect(smtp.timeoutMilliseconds == 12_000 && !smtp.verifyCertificate && smtp.startTLS == .required)
        let fromEnvironment = configuration.smtpConfiguration(
            try MailDeliveryConfiguration.smtpSettings(commandLineURL: "smtps://hearth@mail.example.com")
        )
        #expect(fromEnvironment.username == "hearth" && fromEnvironment.password == "from-env")
        for bad in ["http://x", "smtp://x?starttls=maybe", "smtp://x?colour=blue", "smtp://"] {
            #expect(throws: MailError.self, "\(bad)") {
                try MailDeliveryConfiguration.smtpSettings(commandLineURL: bad)
            }
        }
    }
}

@Suite struct OutgoingMailLinkTests {
    @Test func theFirstWebLinkIsTheFirstWordStartingWithAWebScheme() {
        #expect(
            OutgoingMail.firstWebLink(in: "Reset:\n\thttps://a.example/x?y=1&z=2\nthanks")
                == "https://a.example/x?y=1&z=2"
        )
        #expect(
            OutgoingMail.firstWebLink(in: "http://first.example then https://second.example") == "http://first.example"
        )
        #expect(OutgoingMail.firstWebLink(in: "Ciao — visita https://é.example/ora") == "https://é.example/ora")
        #expect(OutgoingMail.firstWebLink(in: "xhttps://not.a.word.start https://yes.example") == "https://yes.example")
        #expect(OutgoingMail.firstWebLink(in: "ends with https://") == "https://")
        #expect(OutgoingMail.firstWebLink(in: "no links, ftp://x.example, https:/broken") == nil)
        #expect(OutgoingMail.firstWebLink(in: "") == nil)
    }
}
