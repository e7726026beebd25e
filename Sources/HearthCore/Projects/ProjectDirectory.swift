import FoundationEssentials
public import HearthBase
public import HearthStore
import Synchronization

/// Every project, indexed for the lookups requests make (by ID or number, by API key), kept
/// in memory and reloaded from the store every few seconds so that changes made by another
/// node or by the CLI are picked up without a restart.
public final class ProjectDirectory: Sendable {
    private struct Snapshot {
        var byIDOrNumber: [String: Project] = [:]
        var byAPIKey: [String: Project] = [:]
        var ordered: [Project] = []
        var loadedAt: Int64 = .min
    }

    private let store: any Store
    private let clock: any Clock
    private let refreshMilliseconds: Int64
    private let snapshot = Mutex(Snapshot())
    private let isReloading = Atomic<Bool>(false)

    public init(store: any Store, clock: any Clock, refreshMilliseconds: Int64 = 2_000) throws {
        self.store = store
        self.clock = clock
        self.refreshMilliseconds = refreshMilliseconds
        try reload()
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
        fresh.loadedAt = clock.nowMilliseconds()
        snapshot.withLock { $0 = fresh }
    }

    private func current() -> Snapshot {
        let current = snapshot.withLock { $0 }
        if clock.nowMilliseconds() - current.loadedAt > refreshMilliseconds,
            !isReloading.exchange(true, ordering: .acquiring)
        {
            // One caller refreshes; the rest keep using the copy they have. A failed reload
            // (the store briefly unavailable) keeps the last good copy.
            defer { isReloading.store(false, ordering: .releasing) }
            try? reload()
            return snapshot.withLock { $0 }
        }
        return current
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
    private static let decoder = JSONDecoder()
}
