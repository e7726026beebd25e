@_exported public import Foundation
// The transport protocol, for programs and tests that inject their own.
@_exported public import HearthTransport
// The shared wire types (ActionCodeSettings, ActionCodeOperation, ActionCodeURL, …) are part of
// this library's API, the same types `import Hearth` gives, so a program may import both.
@_exported public import HearthWire

/// The admin SDK's entry point for one Hearth project: its ``auth`` (links, users, ID tokens)
/// and its ``installations`` (deletion, installation tokens), on one connection and one cache
/// of the project's published keys.
///
/// ```swift
/// let admin = AdminApp(projectID: "demo-project", credential: .bearer("owner"),
///                      baseURL: URL(string: "http://127.0.0.1:9099")!)
/// let link = try await admin.auth.generatePasswordResetLink(for: "ada@example.com")
/// ```
public final class AdminApp: Sendable {
    /// The project this app manages.
    public let projectID: String
    /// Hearth's address.
    public let baseURL: URL
    /// Email-action links, user management and ID-token verification.
    public let auth: AdminAuth
    /// Installation deletion and installation-token verification.
    public let installations: AdminInstallations

    /// An app for `projectID` on the Hearth at `baseURL`, sending through `URLSession` and
    /// reading the system clock.
    public convenience init(projectID: String, credential: AdminCredential, baseURL: URL) {
        self.init(
            projectID: projectID,
            credential: credential,
            baseURL: baseURL,
            transport: URLSessionTransport(),
            now: { Date() }
        )
    }

    /// An app whose HTTP transport and clock are given: the clock decides token expiry, the
    /// key cache's lifetime and the instant `revokeRefreshTokens` writes.
    public init(
        projectID: String,
        credential: AdminCredential,
        baseURL: URL,
        transport: any HTTPTransport,
        now: @escaping @Sendable () -> Date
    ) {
        self.projectID = projectID
        self.baseURL = baseURL
        let connection = AdminConnection(
            projectID: projectID,
            credential: credential,
            baseURL: baseURL,
            transport: transport,
            now: now
        )
        let verifier = TokenVerifier(connection: connection, keys: PublishedKeys(connection: connection))
        auth = AdminAuth(connection: connection, verifier: verifier)
        installations = AdminInstallations(connection: connection, verifier: verifier)
    }
}

/// How the admin SDK authenticates to Hearth.
public enum AdminCredential: Sendable, Hashable {
    /// An admin credential sent as `Authorization: Bearer <token>`: a `hak_…` key made with
    /// `hearth admin-key create --project P`, or `owner` on the development seed.
    case bearer(String)

    /// The `Authorization` header value.
    var authorization: String {
        switch self {
        case .bearer(let token): "Bearer \(token)"
        }
    }
}
