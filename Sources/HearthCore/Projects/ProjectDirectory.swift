import FoundationEssentials
public import HearthBase
public import HearthStore
import Synchronization

/// Every project, indexed for the lookups requests make (by ID or number, by API key), kept
/// in memory. Once `startReloading()` is called, a thread of its own reloads it when the store
/// announces that a project changed (another node's change on PostgreSQL, within a moment)
/// and every refresh interval (changes nobody announces: the CLI on a SQLite file), so no
/// request ever waits for a reload.
public final class ProjectDirectory: Sendable {
    private struct Snapshot {
        var byIDOrNumber: [String: Project] = [:]
        var byAPIKey: [String: Project] = [:]
        var ordered: [Project] = []
    }

    private let store: any Store
    private let clock: any Clock
    private let snapshot = Mutex(Snapshot())
    private let follower: StoreFollower

    public init(store: any Store, clock: any Clock, refreshMilliseconds: Int64 = 2_000) throws {
        self.store = store
        self.clock = clock
        follower = StoreFollower(
            named: "project-reload",
            store: store,
            topic: .projects,
            intervalMilliseconds: Int(refreshMilliseconds)
        )
        try reload()
    }

    /// Starts the thread (`project-reload`) that keeps the index fresh; a failed reload (the
    /// store briefly unavailable) keeps the last good copy until the next.
    public func startReloading() {
        follower.start { [self] in try reload() }
    }

    /// Stops the reloading thread, waiting for a reload in progress.
    public func stopReloading() {
        follower.stop()
    }

    /// The project with this ID or number.
    public func project(_ idOrNumber: String) -> Project? {
        current().byIDOrNumber[idOrNumber]
    }

    /// The project this API key belongs to.
    public func project(apiKey: String) -> Project? {
        current().byAPIKey[apiKey]
    }

    public var all: [Project] { current().ordered }

    /// Validates and stores a project (inserting or replacing it), then reloads the index.
    @discardableResult
    public func save(_ project: Project) throws -> Project {
        let project = try project.validated()
        let document = try Self.encoder.encode(project)
        let text = String(decoding: document, as: UTF8.self)
        let now = clock.nowSeconds()
        let others = all.filter { $0.id != project.id }
        if let clash = others.first(where: { $0.number == project.number }) {
            throw ProjectValidationError(
                projectID: project.id,
                problems: ["projectNumber is already used by \(clash.id)"]
            )
        }
        if let clash = others.first(where: { !Set($0.apiKeys).isDisjoint(with: project.apiKeys) }) {
            throw ProjectValidationError(projectID: project.id, problems: ["an API key is already used by \(clash.id)"])
        }
        try store.write { transaction in
            try transaction.saveProject(id: project.id, number: project.number, document: text, at: now)
        }
        try reload()
        return project
    }

    /// Removes a project and everything stored for it.
    @discardableResult
    public func delete(id: String) throws -> Bool {
        let deleted = try store.write { try $0.deleteProject(id: id) }
        try reload()
        return deleted
    }

    /// Reads every project from the store now.
    public func reload() throws {
        let records = try store.read { try $0.projects() }
        var fresh = Snapshot()
        for record in records {
            let project = try Self.decoder.decode(Project.self, from: Data(record.document.utf8))
            fresh.byIDOrNumber[project.id] = project
            fresh.byIDOrNumber[project.number] = project
            for key in project.apiKeys { fresh.byAPIKey[key] = project }
            fresh.ordered.append(project)
        }
        snapshot.withLock { $0 = fresh }
    }

    private func current() -> Snapshot {
        snapshot.withLock { $0 }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
    private static let decoder = JSONDecoder()
}
