public import HearthBase
import HearthCrypto
public import HearthStore

/// Why an admin call was refused.
public enum AdminAuthenticationError: Error, Sendable, Equatable {
    /// No `Authorization: Bearer ...` header.
    case missing
    /// A credential that is unknown, malformed or revoked.
    case invalid
    /// A valid credential of another project.
    case forbidden
}

/// The credentials that authorise admin calls (`Authorization: Bearer <credential>`).
///
/// A credential is `hak_<id>_<secret>`: the ID finds the stored record and a SHA-256 of the
/// 32-byte random secret is compared in constant time; the secret itself is never stored.
/// The development seed's project also accepts the fixed credential `owner`, as the
/// Firebase emulator does, and no other project ever does.
public final class AdminCredentials: Sendable {
    private let store: any Store
    private let clock: any Clock
    private let developmentProjectID: String?

    public static let prefix = "hak_"

    /// - Parameter developmentProjectID: the seed project when it runs, which accepts `owner`.
    public init(store: any Store, clock: any Clock, developmentProjectID: String?) {
        self.store = store
        self.clock = clock
        self.developmentProjectID = developmentProjectID
    }

    /// Makes a credential for the project. The returned text is shown once; only its hash is kept.
    public func create(projectID: String, label: String) throws -> (credential: String, record: AdminCredentialRecord) {
        let id = Hex.encode(SecureRandom.bytes(count: 6))
        let secret = Base64URL.encode(SecureRandom.bytes(count: 32))
        let record = AdminCredentialRecord(
            credentialID: id,
            projectID: projectID,
            label: label,
            secretHash: SHA256.hash(utf8Of: secret),
            createdAt: clock.nowSeconds()
        )
        try store.write { try $0.insertAdminCredential(record) }
        return ("\(Self.prefix)\(id)_\(secret)", record)
    }

    public func list(projectID: String) throws -> [AdminCredentialRecord] {
        try store.read { try $0.adminCredentials(projectID: projectID) }
    }

    /// Revokes the credential; answers `false` if it was unknown or already revoked.
    public func revoke(id: String) throws -> Bool {
        let now = clock.nowSeconds()
        return try store.write { try $0.revokeAdminCredential(id: id, at: now) }
    }

    /// Checks an `Authorization` header for admin access to `projectID`.
    public func authenticate(authorization: String?, projectID: String) throws(AdminAuthenticationError) {
        guard let authorization, let credential = Self.bearer(authorization) else { throw .missing }
        if credential == DevelopmentSeed.adminCredential, let developmentProjectID {
            // `owner` belongs to the seed project only; elsewhere it is just a wrong credential.
            if projectID == developmentProjectID { return }
            throw .invalid
        }
        guard credential.hasPrefix(Self.prefix) else { throw .invalid }
        let body = credential.dropFirst(Self.prefix.count)
        guard let separator = body.firstIndex(of: "_") else { throw .invalid }
        let id = String(body[..<separator])
        let secret = body[body.index(after: separator)...]
        guard let record = try? store.read({ try $0.adminCredential(id: id) }), record.revokedAt == nil,
            constantTimeEquals(SHA256.hash(utf8Of: String(secret)), record.secretHash)
        else { throw .invalid }
        guard record.projectID == projectID else { throw .forbidden }
        let now = clock.nowSeconds()
        if (record.lastUsedAt ?? 0) < now - 60 {
            store.enqueueWrite { try $0.touchAdminCredential(id: id, at: now) }
        }
    }

    /// The project an `Authorization` header's credential belongs to, for admin calls whose
    /// path names no project: the seed project for `owner` (when the seed runs), else the
    /// project the stored credential was made for. Checks the credential like `authenticate`.
    public func projectID(authorization: String?) throws(AdminAuthenticationError) -> String {
        guard let authorization, let credential = Self.bearer(authorization) else { throw .missing }
        if credential == DevelopmentSeed.adminCredential {
            guard let developmentProjectID else { throw .invalid }
            return developmentProjectID
        }
        guard credential.hasPrefix(Self.prefix) else { throw .invalid }
        let body = credential.dropFirst(Self.prefix.count)
        guard let separator = body.firstIndex(of: "_"),
            let record = try? store.read({ try $0.adminCredential(id: String(body[..<separator])) })
        else { throw .invalid }
        try authenticate(authorization: authorization, projectID: record.projectID)
        return record.projectID
    }

    /// The credential of a `Bearer` authorization (scheme case-insensitive), if any.
    static func bearer(_ authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let credential = parts[1].trimmingASCIIWhitespace()
        return credential.isEmpty ? nil : credential
    }
}
