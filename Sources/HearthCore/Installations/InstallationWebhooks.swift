public import HearthBase
import HearthCrypto
public import HearthStore

/// The services subscribed to a project's installation deletions: a URL each, and a secret
/// that signs what is sent to it (see ``WebhookSignature``). Secrets are sealed under the
/// master key at rest, since signing needs them in the clear.
public final class InstallationWebhooks: Sendable {
    private let store: any Store
    private let clock: any Clock
    private let masterKey: MasterKey

    public static let secretPrefix = "whsec_"
    public static let maximumURLLength = 2_048

    public init(store: any Store, clock: any Clock, masterKey: MasterKey) {
        self.store = store
        self.clock = clock
        self.masterKey = masterKey
    }

    /// Subscribes `url` to the project's deletions. Without a `secret`, one is made; either
    /// way it is answered once here and never again.
    public func add(projectID: String, url: String, secret: String?, description: String) throws
        -> (record: InstallationWebhookRecord, secret: String)
    {
        try Self.checkURL(url)
        let secret = secret ?? Self.secretPrefix + Base64URL.encode(SecureRandom.bytes(count: 32))
        guard (16...256).contains(secret.utf8.count) else {
            throw InstallationError.invalidArgument("secret must be 16 to 256 bytes.")
        }
        guard description.utf8.count <= 256 else {
            throw InstallationError.invalidArgument("description must be at most 256 bytes.")
        }
        let id = "wh_" + Hex.encode(SecureRandom.bytes(count: 8))
        let record = InstallationWebhookRecord(
            webhookID: id,
            projectID: projectID,
            url: url,
            sealedSecret: masterKey.seal(Array(secret.utf8), context: Self.sealingContext(id)),
            description: description,
            createdMilliseconds: clock.nowMilliseconds()
        )
        try store.write { try $0.insertInstallationWebhook(record) }
        return (record, secret)
    }

    public func list(projectID: String) throws -> [InstallationWebhookRecord] {
        try store.read { try $0.installationWebhooks(projectID: projectID) }
    }

    /// Unsubscribes; pending deliveries to it are dropped with it.
    public func remove(projectID: String, webhookID: String) throws {
        guard try store.write({ try $0.deleteInstallationWebhook(projectID: projectID, id: webhookID) }) else {
            throw InstallationError.webhookNotFound
        }
    }

    /// The secret of a stored subscription.
    func secret(webhookID: String, sealed: [UInt8]) throws -> [UInt8] {
        try masterKey.open(sealed, context: Self.sealingContext(webhookID))
    }

    private static func sealingContext(_ webhookID: String) -> String { "installation-webhook:\(webhookID)" }

    /// An absolute `http` or `https` URL with a valid host and port, parsed as strictly as a
    /// continue URL (`ContinueURL`: no user-info, spaces, control characters, backslashes or
    /// percent-encoded hosts), so it reaches the host everyone reads in it.
    static func checkURL(_ url: String) throws(InstallationError) {
        guard url.utf8.count <= maximumURLLength else { throw .invalidArgument("url is too long.") }
        do {
            _ = try ContinueURL(url)
        } catch .notAbsolute, .unsupportedScheme {
            throw .invalidArgument("url must be an absolute http or https URL.")
        } catch {
            throw .invalidArgument(
                "url must be an absolute http or https URL with a valid host (and port), without user information."
            )
        }
    }
}
