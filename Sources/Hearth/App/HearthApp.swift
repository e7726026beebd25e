import Foundation
import Synchronization

/// A configured app: a name and its ``HearthOptions``. ``Installations`` and ``Auth`` each keep
/// one instance per app.
///
/// Spelled as `FirebaseApp` is: configure once at start-up with ``configure(options:)`` (the
/// default app) or ``configure(name:options:)`` (a named one), then reach it through ``app()``.
public final class HearthApp: Sendable {
    /// The name of the app ``configure(options:)`` makes.
    static let defaultName = "__HEARTHAPP_DEFAULT"

    private static let registry = Mutex<[String: HearthApp]>([:])

    /// The app's name; the default app's is `__HEARTHAPP_DEFAULT`.
    public let name: String

    /// A copy of the options the app was configured with.
    public let options: HearthOptions

    /// Time, persistence and transport: the system's unless a test supplies its own.
    let services: HearthServices

    private let components = Mutex<(installations: Installations?, auth: Auth?)>((nil, nil))

    init(name: String, options: HearthOptions, services: HearthServices) {
        self.name = name
        self.options = options.copy()
        self.services = services
    }

    /// Configures the default app. Configuring it a second time is a programming error.
    public static func configure(options: HearthOptions) {
        configure(name: defaultName, options: options)
    }

    /// Configures an app under `name`. Configuring a name a second time is a programming error.
    public static func configure(name: String, options: HearthOptions) {
        configure(name: name, options: options, services: .system)
    }

    /// Configures an app with its own time, persistence and transport (tests use this).
    @discardableResult
    static func configure(name: String, options: HearthOptions, services: HearthServices) -> HearthApp {
        precondition(!name.isEmpty, "An app needs a name.")
        let app = HearthApp(name: name, options: options, services: services)
        registry.withLock { apps in
            precondition(apps[name] == nil, "The app \(name) is already configured.")
            apps[name] = app
        }
        return app
    }

    /// The default app, or nil before ``configure(options:)``.
    public static func app() -> HearthApp? { app(name: defaultName) }

    /// The app configured under `name`, or nil.
    public static func app(name: String) -> HearthApp? { registry.withLock { $0[name] } }

    /// This app's ``Installations``, made on first use.
    func installations() -> Installations {
        components.withLock { parts in
            if let existing = parts.installations { return existing }
            let made = Installations(app: self)
            parts.installations = made
            return made
        }
    }

    /// This app's ``Auth``, made on first use.
    func auth() -> Auth {
        components.withLock { parts in
            if let existing = parts.auth { return existing }
            let made = Auth(app: self)
            parts.auth = made
            return made
        }
    }

    /// The key under which this app's entries are persisted: one per app name and app ID.
    func storageKey(_ kind: String) -> String {
        let identity = Data("\(name)+\(options.googleAppID)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "\(kind).\(identity)"
    }
}
