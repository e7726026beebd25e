import Foundation
import HearthBase
import HearthCore
import HearthMail
import HearthStore
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Deliveries made while the store cannot record them (a full disk) are kept in memory until
/// it can, so messages whose claims lapsed meanwhile are not sent twice.
@Suite struct DiskFullMailTests {
    @Test("deliveries the full disk could not record are recorded after it frees, and nothing is sent twice")
    func nothingIsSentTwiceAfterADiskFull() throws {
        guard getuid() == 0 else {
            print("disk full mail: skipped, mounting a tmpfs needs root (CI runs as root)")
            return
        }
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hearth-mail-full-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", mountPoint.path])
        defer { try? Self.run("/bin/umount", [mountPoint.path]) }
        let filler = mountPoint.appendingPathComponent("filler").path

        let transport = RecordingTransport()
        let harness = try MailerTests(transport: transport, databaseDirectory: mountPoint)
        defer { harness.store.close() }
        let count = harness.mailer.configuration.batchSize  // one claimed batch
        let queued = try (0..<count).map { _ in
            try harness.mailer.queueTestMessage(project: exampleProject(), to: "ada@example.com", publicURL: "http://h")
        }
        // The disk fills while the claimed batch is being sent: its deliveries cannot be recorded.
        transport.afterDelivery.withLock { $0 = { Self.fill(filler) } }
        #expect(harness.mailer.deliverDueMessages(worker: "w") == count)
        transport.afterDelivery.withLock { $0 = nil }
        let deliveredWhileFull = transport.delivered.withLock { $0.count }
        // The claims (30 s) lapse while the disk is still full, before the messages' deadline
        // (60 s): nothing can be claimed or sent; once it frees, they could be taken again.
        harness.clock.advance(milliseconds: 31_000)
        #expect(harness.mailer.deliverDueMessages(worker: "w") == 0)
        unlink(filler)
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

    static func fill(_ path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 4_096)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw StoreError(.other, "\(executable) \(arguments.joined(separator: " ")) failed")
        }
    }
}
