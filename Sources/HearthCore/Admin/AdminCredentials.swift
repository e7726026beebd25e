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
    /// The caller's address made too many failed attempts; it may try again after the wait.
    case throttled(retryAfterSeconds: Int64)
}

/// The credentials that authorise admin calls (`Authorization: Bearer <credential>`).
///
/// A credential is `hak_<id>_<secret>`: the ID finds the stored record and a SHA-256 of the
/// 32-byte random secret is compared in constant time; the secret itself is never stored.
/// The development seed's project also accepts the fixed credential `owner`, as the
/// Firebase emulator does, and no other project ever does.
///
/// Wrong credentials back off per client address (``failures``): once an address has used
/// its free failures, its attempts are refused without being tried until the wait has
/// passed. Checking costs a success one more lookup in the read that finds the credential,
/// and no write; only failures are written.
public final class AdminCredentials: Sendable {
    private let store: any Store
    private let clock: any Clock
    private let developmentProjectID: String?
    /// Failed authentications per client address: 10 free, then 1 s doubling up to a minute,
    /// remembered for an hour.
    public let failures: FailureBackoff

    public static let prefix = "hak_"

    /// - Parameter developmentProjectID: the seed project when it runs, which accepts `owner`.
    public init(
        store: any Store,
        clock: any Clock,
        developmentProjectID: String?,
        failures: FailureBackoff = FailureBackoff(
            name: "admin-failure-ip",
            freeFailures: 10,
            schedule: RetrySchedule(baseMilliseconds: 1_000, maximumMilliseconds: 60_000),
            memorySeconds: 3_600
        )
    ) {
        self.store = store
        self.clock = clock
        self.developmentProjectID = developmentProjectID
        self.failures = failures
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

    /// Checks an `Authorization` header for admin access to `projectID` from `clientAddress`.
    /// The development seed's `owner` on its own project is not throttled: it is public.
    public func authenticate(
        authorization: String?,
        projectID: String,
        clientAddress: String
    ) throws(AdminAuthenticationError) {
        guard let authorization, let credential = Self.bearer(authorization) else { throw .missing }
        if credential == DevelopmentSeed.adminCredential, let developmentProjectID, projectID == developmentProjectID {
            return
        }
        let parts = Self.parts(credential)
        let now = clock.nowSeconds()
        let found = try? store.read { transaction in
            (
                try failures.failures(clientAddress, in: transaction, now: now),
                try parts.map { try transaction.adminCredential(id: $0.id) } ?? nil
            )
        }
        if let wait = failures.waitSeconds(after: found?.0 ?? .none, now: now) {
            throw .throttled(retryAfterSeconds: wait)
        }
        guard let parts, let record = found?.1, record.revokedAt == nil,
            constantTimeEquals(SHA256.hash(utf8Of: String(parts.secret)), record.secretHash)
        else {
            try? store.write { [failures] in
                try FailureBackoff.recordFailure([(failures, clientAddress)], in: $0, now: now)
            }
            throw .invalid
        }
        guard record.projectID == projectID else { throw .forbidden }
        if (record.lastUsedAt ?? 0) < now - 60 {
            store.enqueueWrite { [id = record.credentialID] in try $0.touchAdminCredential(id: id, at: now) }
        }
    }

    /// The project an `Authorization` header's credential belongs to, for admin calls whose
    /// path names no project: the seed project for `owner` (when the seed runs), else the
    /// project the stored credential was made for. Checks the credential like `authenticate`.
    public func projectID(authorization: String?, clientAddress: String) throws(AdminAuthenticationError) -> String {
        guard let authorization, let credential = Self.bearer(authorization) else { throw .missing }
        let projectID: String
        if credential == DevelopmentSeed.adminCredential, let developmentProjectID {
            projectID = developmentProjectID
        } else if let parts = Self.parts(credential),
            let record = try? store.read({ try $0.adminCredential(id: parts.id) })
        {
            projectID = record.projectID
        } else {
            // Unknown: `authenticate` answers it as a failure of this address, or its back-off.
            projectID = ""
        }
        try authenticate(authorization: authorization, projectID: projectID, clientAddress: clientAddress)
        return projectID
    }

    /// The ID and secret of a `hak_<id>_<secret>` credential, `nil` when it is not one.
    private static func parts(_ credential: String) -> (id: String, secret: Substring)? {
        guard credential.hasPrefix(prefix) else { return nil }
        let body = credential.dropFirst(prefix.count)
        guard let separator = body.firstIndex(of: "_") else { return nil }
        return (String(body[..<separator]), body[body.index(after: separator)...])
    }

    /// The credential of a `Bearer` authorization (scheme case-insensitive), if any.
    static func bearer(_ authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let credential = parts[1].trimmingASCIIWhitespace()
        return credential.isEmpty ? nil : credential
    }
}
