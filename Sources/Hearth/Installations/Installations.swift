import Foundation

/// The app's installation: a stable installation ID (FID) registered with Hearth, and auth
/// tokens that prove it to back ends.
///
/// Spelled as FirebaseInstallations' `Installations` is. The FID is made on the device, kept
/// across launches (Keychain on Apple platforms, a 0600 file in the user's data directory
/// elsewhere) and registered once however many callers ask at the same time. Tokens are
/// renewed when less than an hour is left. When Hearth no longer knows the installation (it
/// was deleted from the server side, or expired), the next token call makes a new FID, posts
/// ``Foundation/Notification/Name/InstallationIDDidChange`` and answers with the new
/// installation's token.
public final class Installations: Sendable {
    private let appName: String
    private let controller: InstallationsController
    private let changes: InstallationIDChangeBroadcaster
    private let configurationProblem: String?

    init(app: HearthApp) {
        appName = app.name
        changes = InstallationIDChangeBroadcaster(appName: app.name)
        let options = app.options
        var problems: [String] = []
        if options.apiKey?.isEmpty ?? true { problems.append("apiKey") }
        if options.projectID?.isEmpty ?? true { problems.append("projectID") }
        if options.baseURL == nil { problems.append("baseURL") }
        if options.googleAppID.isEmpty { problems.append("googleAppID") }
        configurationProblem =
            problems.isEmpty ? nil : "The options of \(app.name) lack \(problems.joined(separator: ", "))."
        controller = InstallationsController(
            store: InstallationStore(storage: app.services.storage, key: app.storageKey("installation")),
            api: InstallationsAPIService(
                baseURL: options.baseURL ?? URL(fileURLWithPath: "/"),
                projectID: options.projectID ?? "",
                apiKey: options.apiKey ?? "",
                appID: options.googleAppID,
                transport: app.services.transport
            ),
            services: app.services,
            changes: changes
        )
    }

    /// The installations of the default app. Calling it before
    /// ``HearthApp/configure(options:)`` is a programming error.
    public static func installations() -> Installations {
        guard let app = HearthApp.app() else {
            preconditionFailure("Call HearthApp.configure(options:) before Installations.installations().")
        }
        return installations(app: app)
    }

    /// The installations of `app` (one instance per app).
    public static func installations(app: HearthApp) -> Installations { app.installations() }

    /// The installation ID (FID): made on first use, registered with Hearth, the same on every
    /// launch until ``delete()`` or until Hearth forgets the installation.
    public func installationID() async throws -> String {
        try checkConfiguration()
        return try await controller.installationID()
    }

    /// A token for the installation, renewed when it has less than an hour left.
    public func authToken() async throws -> InstallationsAuthTokenResult {
        try await authTokenForcingRefresh(false)
    }

    /// A token for the installation; with `forceRefresh`, a new one from Hearth whatever the
    /// stored token's expiry.
    public func authTokenForcingRefresh(_ forceRefresh: Bool) async throws -> InstallationsAuthTokenResult {
        try checkConfiguration()
        let token = try await controller.authToken(forcingRefresh: forceRefresh)
        return InstallationsAuthTokenResult(authToken: token.token, expirationDate: token.expirationDate)
    }

    /// Deletes the installation at Hearth and on the device. The next call makes a new FID.
    /// When Hearth cannot be reached the local installation stays, and the call can be repeated.
    public func delete() async throws {
        try checkConfiguration()
        try await controller.delete()
    }

    /// The FIDs that become this app's installation ID from now on, one element per change
    /// (the same changes as ``Foundation/Notification/Name/InstallationIDDidChange``). Each
    /// access makes a new stream.
    public var installationIDChanges: AsyncStream<String> { changes.stream() }

    private func checkConfiguration() throws(InstallationsErrorCode) {
        if let configurationProblem { throw InstallationsErrorCode(.invalidConfiguration, configurationProblem) }
    }
}
