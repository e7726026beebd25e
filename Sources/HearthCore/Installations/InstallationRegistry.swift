public import HearthBase
public import HearthStore

/// The installations of every project: registration, auth tokens, deletion and the online
/// token check. Rules live here; the HTTP layer parses requests and renders answers.
public final class InstallationRegistry: Sendable {
    /// What a registration answers.
    public struct Registration: Sendable {
        /// The FID the client must use from now on: the one it sent, or a server-made one.
        public let fid: String
        public let refreshToken: String
        public let authToken: IssuedToken
    }

    /// A signed installation auth token and how long it lives.
    public struct IssuedToken: Sendable {
        public let token: String
        public let expiresInSeconds: Int64
    }

    /// The longest `sdkVersion` kept; longer ones are refused.
    public static let maximumSDKVersionLength = 128

    /// How long after its registration an installation may be registered again by the same
    /// app, keeping its FID with a new refresh token: a client whose answer was lost retries
    /// within moments. Later, an FID — which apps share with their own services, so it is no
    /// secret — is never handed to whoever names it: a fresh FID is answered instead, and the
    /// installation stays its owner's.
    public static let reRegistrationWindowMilliseconds: Int64 = 10 * 60 * 1_000

    private let store: any Store
    private let clock: any Clock
    private let keys: KeyRing
    private let onDeletion: @Sendable () -> Void

    /// - Parameter onDeletion: called after a deletion commits (wakes the webhook sender).
    public init(store: any Store, clock: any Clock, keys: KeyRing, onDeletion: @escaping @Sendable () -> Void = {}) {
        self.store = store
        self.clock = clock
        self.keys = keys
        self.onDeletion = onDeletion
    }

    // MARK: - Client calls

    /// Registers an installation of `appID`. A well-formed `requestedFID` is kept when it is
    /// new, or when it already belongs to the same app (the client is retrying a registration
    /// whose answer it lost: it gets a new refresh token, and the old one stops working). Any
    /// other FID — malformed, deleted before, or taken by another app — is replaced by a fresh
    /// server-made one, which every Firebase client adopts. A legacy Instance ID counts as
    /// well-formed only with the migration token the client sent beside it
    /// (``LegacyInstanceID/mayMigrate(_:provenBy:)``).
    public func register(
        project: Project,
        requestedFID: String?,
        appID: String,
        sdkVersion: String,
        migrationToken: String? = nil
    ) throws -> Registration {
        try store.write(
            registration(
                project: project,
                requestedFID: requestedFID,
                appID: appID,
                sdkVersion: sdkVersion,
                migrationToken: migrationToken
            )
        )
    }

    /// A registration as one durable write, for the store to run (synchronously or deferred):
    /// the checks, the refresh token and the requested FID's auth token happen here, before
    /// it (throwing what is wrong with the request); the write stores the installation and
    /// answers the FID it got; after the commit the answer is made for that FID (its token
    /// signed again only when the requested FID was replaced).
    public func registration(
        project: Project,
        requestedFID: String?,
        appID: String,
        sdkVersion: String,
        migrationToken: String? = nil
    ) throws -> StoreWrite<Void, String, Registration> {
        guard project.app(id: appID) != nil else { throw InstallationError.appNotInProject(appID) }
        try Self.checkSDKVersion(sdkVersion)
        let (refreshToken, hash) = InstallationRefreshToken.generate()
        let now = clock.nowMilliseconds()
        let projectID = project.id
        let requested = requestedFID.flatMap { fid in
            FID.isWellFormed(fid) || LegacyInstanceID.mayMigrate(fid, provenBy: migrationToken) ? fid : nil
        }
        // The key is fetched here, never after the commit: that step may run on the store's
        // writer, where making a project's first key (a synchronous write) would wait on itself.
        let key = try keys.activeKey(projectID: project.id, purpose: .installations)
        let presigned = try requested.map { try issue(project: project, fid: $0, appID: appID, now: now, key: key) }
        return StoreWrite { _, transaction throws(StoreError) in
            if let requested {
                if try transaction.insertInstallationIfNew(
                    Self.record(projectID, requested, appID, hash, sdkVersion, now)
                ) {
                    return requested
                }
                // Taken or deleted: the same app retrying a registration it just made keeps
                // it; otherwise a fresh FID.
                if let existing = try transaction.installation(projectID: projectID, fid: requested),
                    existing.appID == appID,
                    now - existing.createdMilliseconds < Self.reRegistrationWindowMilliseconds
                {
                    try transaction.replaceInstallationRefreshToken(
                        projectID: projectID,
                        fid: requested,
                        refreshTokenHash: hash,
                        sdkVersion: sdkVersion,
                        seenAt: now
                    )
                    return requested
                }
            }
            // 128 random bits do not collide in practice; a collision or a tombstone only means another draw.
            while true {
                let fresh = FID.generate()
                if try transaction.insertInstallationIfNew(Self.record(projectID, fresh, appID, hash, sdkVersion, now))
                {
                    return fresh
                }
            }
        } afterCommit: { [self] fid in
            let token =
                try fid == requested ? presigned! : issue(project: project, fid: fid, appID: appID, now: now, key: key)
            return Registration(fid: fid, refreshToken: refreshToken, authToken: token)
        }
    }

    /// A new auth token for the installation, proven by its refresh token. `appID` and
    /// `sdkVersion`, when given, update the record; `lastSeen` is recorded when stale enough
    /// (see ``LastSeenPolicy``), off the request's path.
    public func generateToken(
        project: Project,
        fid: String,
        refreshToken: String,
        appID requestedAppID: String?,
        sdkVersion requestedSDKVersion: String?
    ) throws -> IssuedToken {
        guard FID.isInstallationID(fid) else { throw InstallationError.notFound }
        let projectID = project.id
        guard let record = try store.read({ try $0.installation(projectID: projectID, fid: fid) }) else {
            throw InstallationError.notFound
        }
        guard InstallationRefreshToken.matches(refreshToken, storedHash: record.refreshTokenHash) else {
            throw InstallationError.invalidRefreshToken
        }
        if let requestedSDKVersion { try Self.checkSDKVersion(requestedSDKVersion) }
        let appID = requestedAppID ?? record.appID
        let sdkVersion = requestedSDKVersion ?? record.sdkVersion
        let now = clock.nowMilliseconds()
        let touch: @Sendable (WriteTransaction) throws -> Void = { transaction in
            try transaction.touchInstallation(
                projectID: projectID,
                fid: fid,
                appID: appID,
                sdkVersion: sdkVersion,
                seenAt: now
            )
        }
        if appID != record.appID {
            // Moving to another app changes what tokens say: durable before any token says it.
            guard project.app(id: appID) != nil else { throw InstallationError.appNotInProject(appID) }
            try store.write(touch)
        } else if sdkVersion != record.sdkVersion
            || LastSeenPolicy.shouldRecord(
                lastSeen: record.lastSeenMilliseconds,
                now: now,
                inactivitySeconds: project.settings.installationInactivitySeconds
            )
        {
            store.enqueueWrite(touch)
        }
        let key = try keys.activeKey(projectID: projectID, purpose: .installations)
        return try issue(project: project, fid: fid, appID: appID, now: now, key: key)
    }

    /// Deletes the installation at its own request, proven by its refresh token.
    public func delete(project: Project, fid: String, refreshToken: String) throws {
        guard FID.isInstallationID(fid) else { throw InstallationError.notFound }
        let projectID = project.id
        let now = clock.nowMilliseconds()
        let outcome = try store.write { transaction -> InstallationDeletion.Outcome in
            guard let record = try transaction.installation(projectID: projectID, fid: fid) else {
                throw InstallationError.notFound
            }
            guard InstallationRefreshToken.matches(refreshToken, storedHash: record.refreshTokenHash) else {
                throw InstallationError.invalidRefreshToken
            }
            return try InstallationDeletion.delete(
                projectID: projectID,
                fid: fid,
                cause: .client,
                now: now,
                in: transaction
            )
        }
        guard case .deleted = outcome else { throw InstallationError.notFound }
        onDeletion()
    }

    // MARK: - Server calls

    /// Deletes the installation at a server's request; answers its tombstone. Throws
    /// `.notFound` for an FID never seen and `.alreadyDeleted` for one deleted before.
    @discardableResult
    public func deleteAsAdmin(project: Project, fid: String) throws -> InstallationTombstoneRecord {
        let projectID = project.id
        let now = clock.nowMilliseconds()
        let outcome = try store.write { transaction in
            try InstallationDeletion.delete(projectID: projectID, fid: fid, cause: .admin, now: now, in: transaction)
        }
        switch outcome {
        case .deleted(let tombstone):
            onDeletion()
            return tombstone
        case .alreadyDeleted: throw InstallationError.alreadyDeleted
        case .notFound: throw InstallationError.notFound
        }
    }

    /// Checks an installation token the way a backend should before trusting it: signature,
    /// expiry, project, and that the installation still exists — a token of a deleted
    /// installation fails at once, whatever its `exp`.
    public func verify(token: String, project: Project) throws -> VerifiedInstallationToken {
        let verified = try InstallationToken.verify(token, project: project, keys: keys, now: clock.nowSeconds())
        let projectID = project.id
        guard try store.read({ try $0.installation(projectID: projectID, fid: verified.fid) }) != nil else {
            throw InstallationError.installationDeleted
        }
        return verified
    }

    // MARK: - Inspection

    public func installation(project: Project, fid: String) throws -> InstallationRecord? {
        let projectID = project.id
        return try store.read { try $0.installation(projectID: projectID, fid: fid) }
    }

    public func tombstone(project: Project, fid: String) throws -> InstallationTombstoneRecord? {
        let projectID = project.id
        return try store.read { try $0.installationTombstone(projectID: projectID, fid: fid) }
    }

    // MARK: - Helpers

    private func issue(project: Project, fid: String, appID: String, now: Int64, key: KeyRing.ActiveKey) throws
        -> IssuedToken
    {
        let lifetime = project.settings.installationTokenLifetimeSeconds
        let token = try InstallationToken.sign(
            fid: fid,
            appID: appID,
            projectNumber: project.number,
            issuedAt: now / 1_000,
            lifetimeSeconds: lifetime,
            key: key
        )
        return IssuedToken(token: token, expiresInSeconds: lifetime)
    }

    private static func checkSDKVersion(_ version: String) throws(InstallationError) {
        guard version.utf8.count <= maximumSDKVersionLength else {
            throw .invalidArgument("sdkVersion must be at most \(maximumSDKVersionLength) bytes.")
        }
    }

    private static func record(
        _ projectID: String,
        _ fid: String,
        _ appID: String,
        _ hash: [UInt8],
        _ sdkVersion: String,
        _ now: Int64
    ) -> InstallationRecord {
        InstallationRecord(
            projectID: projectID,
            fid: fid,
            appID: appID,
            refreshTokenHash: hash,
            sdkVersion: sdkVersion,
            createdMilliseconds: now,
            lastSeenMilliseconds: now
        )
    }
}
