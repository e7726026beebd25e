import Foundation

/// The installation state machine of one app: get or make the FID, register it once however
/// many callers ask, keep a token that is valid for more than an hour, replace an installation
/// Hearth no longer knows, and delete.
///
/// An actor so that the entry, the back-off and the operations in flight change in one place.
/// Each operation kind has at most one task in flight; callers arriving meanwhile await it.
actor InstallationsController {
    /// A token is renewed when it has less than this left (as every Firebase SDK does).
    static let tokenRefreshMargin: TimeInterval = 60 * 60

    private let store: InstallationStore
    private let api: InstallationsAPIService
    private let now: @Sendable () -> Date
    private let jitter: @Sendable () -> TimeInterval
    private let changes: InstallationIDChangeBroadcaster

    private var entry: InstallationEntry?
    private var backoff = Backoff()
    private var registration: Task<InstallationEntry, any Error>?
    private var tokenRefresh: Task<InstallationEntry, any Error>?
    private var deletion: Task<Void, any Error>?

    init(
        store: InstallationStore,
        api: InstallationsAPIService,
        services: HearthServices,
        changes: InstallationIDChangeBroadcaster
    ) {
        self.store = store
        self.api = api
        self.now = services.now
        self.jitter = services.backoffJitter
        self.changes = changes
    }

    /// The current FID, registered with Hearth when Hearth can be reached. When it cannot, the
    /// FID made here is returned: it is the one registration will send.
    func installationID() async throws -> String {
        try await waitForDeletion()
        let local = try currentEntry()
        do {
            return try await registeredEntry().fid
        } catch let error as InstallationsErrorCode where error.code == .serverUnreachable {
            return entry?.fid ?? local.fid
        }
    }

    /// A token valid for more than an hour, or a new one when `forcingRefresh`.
    func authToken(forcingRefresh: Bool) async throws -> InstallationEntry.AuthToken {
        try await waitForDeletion()
        var registered = try await registeredEntry()
        if forcingRefresh || !registered.hasToken(validAt: now(), margin: Self.tokenRefreshMargin) {
            registered = try await refreshedEntry()
        }
        guard let token = registered.authToken else {
            throw InstallationsErrorCode(.unknown, "Hearth registered the installation without a token.")
        }
        return token
    }

    /// Deletes the installation at Hearth and here. Local data stays when Hearth cannot be
    /// reached, so the call can be repeated.
    func delete() async throws {
        if let deletion { return try await deletion.value }
        let task = Task { try await self.performDeletion() }
        deletion = task
        defer { deletion = nil }
        try await task.value
    }

    // MARK: - Steps

    /// The entry in memory, else the persisted one, else a new FID saved and announced.
    private func currentEntry() throws(InstallationsErrorCode) -> InstallationEntry {
        if let entry { return entry }
        if let stored = try store.load() {
            entry = stored
            return stored
        }
        let made = InstallationEntry.unregistered(fid: InstallationID.generate())
        try store.save(made)
        entry = made
        changes.announce(made.fid)
        return made
    }

    /// The registered entry, registering first when needed (one registration in flight).
    private func registeredEntry() async throws -> InstallationEntry {
        let current = try currentEntry()
        if current.isRegistered { return current }
        if let registration { return try await registration.value }
        let task = Task { try await self.register(current) }
        registration = task
        defer { registration = nil }
        return try await task.value
    }

    private func register(_ unregistered: InstallationEntry) async throws -> InstallationEntry {
        try checkBackoff()
        let answer = try await send(installationMayBeGone: false) { () async throws(InstallationsAPIError) in
            try await api.createInstallation(fid: unregistered.fid)
        }
        let registered = InstallationEntry(
            fid: answer.fid,
            refreshToken: answer.refreshToken,
            authToken: .init(token: answer.authToken, expirationDate: now().addingTimeInterval(answer.expiresIn))
        )
        try store.save(registered)
        entry = registered
        if registered.fid != unregistered.fid { changes.announce(registered.fid) }
        return registered
    }

    /// The entry with a new token (one refresh in flight). An installation Hearth no longer
    /// knows (401, 404) is replaced by a new one, whose registration brings the token.
    private func refreshedEntry() async throws -> InstallationEntry {
        if let tokenRefresh { return try await tokenRefresh.value }
        let task = Task { try await self.refreshToken() }
        tokenRefresh = task
        defer { tokenRefresh = nil }
        return try await task.value
    }

    private func refreshToken() async throws -> InstallationEntry {
        let registered = try await registeredEntry()
        guard let refreshToken = registered.refreshToken else { return registered }
        try checkBackoff()
        do {
            let answer = try await send(installationMayBeGone: true) { () async throws(InstallationsAPIError) in
                try await api.generateAuthToken(fid: registered.fid, refreshToken: refreshToken)
            }
            var updated = registered
            updated.authToken = .init(token: answer.token, expirationDate: now().addingTimeInterval(answer.expiresIn))
            // A deletion or replacement that finished meanwhile wins over this token.
            guard entry?.fid == registered.fid else { return try await registeredEntry() }
            try store.save(updated)
            entry = updated
            return updated
        } catch let error as InstallationsAPIError where error.meansInstallationGone {
            try forgetEntry(ifFID: registered.fid)
            return try await registeredEntry()
        }
    }

    private func performDeletion() async throws {
        // Let a registration or refresh in flight settle first, so its result cannot bring the
        // deleted installation back.
        _ = try? await registration?.value
        _ = try? await tokenRefresh?.value
        guard let current = try storedEntry() else { return }
        if let refreshToken = current.refreshToken {
            do {
                try await send(installationMayBeGone: true) { () async throws(InstallationsAPIError) in
                    try await api.deleteInstallation(fid: current.fid, refreshToken: refreshToken)
                }
            } catch let error as InstallationsAPIError where error.meansInstallationGone {
                // Already gone at Hearth: only the local entry is left to remove.
            }
        }
        try forgetEntry(ifFID: current.fid)
    }

    /// The entry in memory, else the persisted one, without making one.
    private func storedEntry() throws(InstallationsErrorCode) -> InstallationEntry? {
        if let entry { return entry }
        return try store.load()
    }

    private func waitForDeletion() async throws {
        if let deletion { try await deletion.value }
    }

    private func forgetEntry(ifFID fid: String) throws(InstallationsErrorCode) {
        guard try storedEntry()?.fid == fid else { return }
        try store.remove()
        entry = nil
    }

    private func checkBackoff() throws(InstallationsErrorCode) {
        guard backoff.allowsRequest(at: now()) else {
            throw InstallationsErrorCode(.serverUnreachable, "Too many server requests; backing off.")
        }
    }

    /// Sends one request, records its outcome in the back-off and maps failures to
    /// ``InstallationsErrorCode``, keeping ``InstallationsAPIError`` for the 401/404 of a call
    /// on an existing installation, which the caller handles.
    private func send<Answer: Sendable>(
        installationMayBeGone: Bool,
        _ request: () async throws(InstallationsAPIError) -> Answer
    ) async throws -> Answer {
        do {
            let answer = try await request()
            backoff.record(.success, at: now(), jitter: 0)
            return answer
        } catch {
            switch error {
            case .transport(let underlying):
                throw InstallationsErrorCode(.serverUnreachable, "Hearth could not be reached: \(underlying)")
            case .http(let status, let message):
                backoff.record(Backoff.Outcome(status: status), at: now(), jitter: jitter())
                if installationMayBeGone, error.meansInstallationGone { throw error }
                let code: InstallationsErrorCode.Code =
                    switch status {
                    case 400, 403, 404: .invalidConfiguration
                    case 429, 500...: .serverUnreachable
                    default: .unknown
                    }
                throw InstallationsErrorCode(code, "Hearth answered \(status): \(message)", httpStatus: status)
            case .malformedAnswer(let detail):
                throw InstallationsErrorCode(.unknown, "Hearth's answer could not be read: \(detail)")
            }
        }
    }
}
