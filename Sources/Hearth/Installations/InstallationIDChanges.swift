public import Foundation
import Synchronization

extension Notification.Name {
    /// Posted on `NotificationCenter.default` whenever an app's installation ID changes: a new
    /// FID made (first use, after ``Installations/delete()``, or after Hearth forgot the
    /// installation) or a FID replaced by Hearth at registration. `object` is nil; `userInfo`
    /// holds the app's name under ``InstallationIDDidChangeAppNameKey``.
    public static let InstallationIDDidChange = Notification.Name("HearthInstallationIDDidChangeNotification")
}

/// The `userInfo` key of ``Foundation/Notification/Name/InstallationIDDidChange`` whose value is
/// the name of the app whose installation ID changed.
public let InstallationIDDidChangeAppNameKey = "HearthInstallationIDDidChangeAppName"

/// Tells observers that an app's FID changed: the notification and every open
/// ``Installations/installationIDChanges`` stream.
final class InstallationIDChangeBroadcaster: Sendable {
    private let appName: String
    private let continuations = Mutex<[UUID: AsyncStream<String>.Continuation]>([:])

    init(appName: String) { self.appName = appName }

    /// A stream of every FID that becomes current after this call.
    func stream() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        let id = UUID()
        continuations.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Announces `fid` as the app's installation ID.
    func announce(_ fid: String) {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.yield(fid) }
        NotificationCenter.default.post(
            name: .InstallationIDDidChange,
            object: nil,
            userInfo: [InstallationIDDidChangeAppNameKey: appName]
        )
    }
}
