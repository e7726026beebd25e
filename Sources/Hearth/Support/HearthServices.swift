import Foundation
import HearthTransport

/// The effects the SDK depends on, injected so that tests control them: the current time,
/// where entries are persisted, how HTTP requests are sent and the jitter added to back-off.
struct HearthServices: Sendable {
    /// The current time.
    var now: @Sendable () -> Date
    /// Where the installation entry and the signed-in user are kept.
    var storage: any SecureStorage
    /// How requests reach Hearth.
    var transport: any HTTPTransport
    /// A random extra wait (0 ..< 1 s) added to each exponential back-off, so that many
    /// clients failing together do not retry together.
    var backoffJitter: @Sendable () -> TimeInterval

    /// The system clock, the platform's secure storage and URLSession.
    static var system: HearthServices {
        HearthServices(
            now: { Date() },
            storage: defaultStorage(),
            transport: URLSessionTransport(),
            backoffJitter: { Double.random(in: 0..<1) }
        )
    }

    private static func defaultStorage() -> any SecureStorage {
        #if canImport(Security)
            return KeychainStorage(service: "dev.hearth.sdk")
        #else
            return FileStorage(directory: FileStorage.userDataDirectory())
        #endif
    }
}
