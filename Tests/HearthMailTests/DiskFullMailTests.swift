import Foundation
import HearthBase
import HearthCore
import HearthMail
import HearthStore
import HearthTestSupport
import Synchronization
import Testing

/// Deliveries made while the store cannot record them (a full disk) are kept in memory until
/// it can, so messages whose claims lapsed meanwhile are not sent twice.
@Suite struct DiskFullMailTests {
    @Test("deliveries the full disk could not record are recorded after it frees, and nothing is sent twice")
    func nothingIsSentTwiceAfterADiskFull() throws {
        guard let disk = try SmallDisk.mount(megabytes: 3, label: "disk full mail") else { return }
        defer { disk.unmount() }

        let transport = RecordingTransport()
        let harness = try MailerTests(transport: transport, databaseDirectory: disk.directory)
        defer { harness.store.close() }
        let count = harness.mailer.configuration.batchSize  // one claimed batch
        let queued = try (0..<count).map { _ in
            try harness.mailer.queueTestMessage(project: exampleProject(), to: "ada@example.com", publicURL: "http://h")
        }
        // The disk fills while the claimed batch is being sent: its deliveries cannot be recorded.
        transport.afterDelivery.withLock { $0 = { disk.fill() } }
        #expect(harness.mailer.deliverDueMessages(worker: "w") == count)
        transport.afterDelivery.withLock { $0 = nil }
        let deliveredWhileFull = transport.delivered.withLock { $0.count }
        // The claims (30 s) lapse while the disk is still full, before the messages' deadline
        // (60 s): nothing can be claimed or sent; once it frees, they could be taken again.
        harness.clock.advance(milliseconds: 31_000)
        #expect(harness.mailer.deliverDueMessages(worker: "w") == 0)
        disk.free()
        harness.clock.advance(milliseconds: 1_000)
        let claimedAfter = harness.mailer.deliverDueMessages(worker: "w")

        let delivered = transport.delivered.withLock { $0.map(\.id) }
        let duplicated = delivered.count - Set(delivered).count
        let sent = try queued.filter { try harness.message($0.id).state == .sent }.count
        print(
            "disk full mail: \(count) queued, \(deliveredWhileFull) delivered while full, \(delivered.count) delivered, "
                + "\(duplicated) duplicated, \(sent) recorded sent after recovery, \(claimedAfter) claimed again"
        )
        #expect(deliveredWhileFull == count)
        #expect(duplicated == 0 && delivered.count == count)
        #expect(sent == count)
        #expect(claimedAfter == 0)
    }
}
