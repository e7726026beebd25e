public import Foundation
import Synchronization

/// The settings that identify an app to Hearth: its app ID and sender ID, the project's API key
/// and ID, and Hearth's address.
///
/// Spelled as `FirebaseOptions` is, so configuration code moves over by renaming the type.
/// ``HearthApp/configure(options:)`` copies the options, so changing them afterwards does not
/// change a configured app.
public final class HearthOptions: Sendable {
    private struct Values {
        var googleAppID: String
        var gcmSenderID: String
        var apiKey: String?
        var projectID: String?
        var baseURL: URL?
    }

    private let values: Mutex<Values>

    /// Options for the app with this ID (`1:<project number>:<platform>:<hash>`) and sender ID
    /// (the project number).
    public init(googleAppID: String, gcmSenderID: String) {
        values = Mutex(Values(googleAppID: googleAppID, gcmSenderID: gcmSenderID))
    }

    /// The app's ID, as the project lists it (`1:100000000000:ios:…`).
    public var googleAppID: String {
        get { values.withLock { $0.googleAppID } }
        set { values.withLock { $0.googleAppID = newValue } }
    }

    /// The sender ID: the project number.
    public var gcmSenderID: String {
        get { values.withLock { $0.gcmSenderID } }
        set { values.withLock { $0.gcmSenderID = newValue } }
    }

    /// One of the project's API keys, sent with every call.
    public var apiKey: String? {
        get { values.withLock { $0.apiKey } }
        set { values.withLock { $0.apiKey = newValue } }
    }

    /// The project's ID (`demo-project`), used in Installations paths.
    public var projectID: String? {
        get { values.withLock { $0.projectID } }
        set { values.withLock { $0.projectID = newValue } }
    }

    /// Hearth's address, such as `http://127.0.0.1:9099`. Every call goes there.
    public var baseURL: URL? {
        get { values.withLock { $0.baseURL } }
        set { values.withLock { $0.baseURL = newValue } }
    }

    /// An independent copy, so a configured app keeps the values it was given.
    func copy() -> HearthOptions {
        let copy = HearthOptions(googleAppID: googleAppID, gcmSenderID: gcmSenderID)
        copy.apiKey = apiKey
        copy.projectID = projectID
        copy.baseURL = baseURL
        return copy
    }
}
