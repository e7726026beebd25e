import HearthBase
import HearthCore
import HearthStore

/// Where the store lives, from `--database`: `sqlite:PATH` or `postgres://...`.
enum StoreLocation {
    case sqlite(path: String)
    case postgres(url: String)

    init(_ url: String) throws(UsageError) {
        if url.hasPrefix("sqlite:") {
            let path = String(url.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw UsageError("hearth: --database sqlite: needs a path") }
            self = .sqlite(path: path)
        } else if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            self = .postgres(url: url)
        } else {
            throw UsageError("hearth: --database must be sqlite:PATH or postgres://...")
        }
    }

    /// Threads of the pool that runs the handlers that read the store (`HandlerPool`), or
    /// `nil` to run them on the HTTP threads. On SQLite a read is a call into the process,
    /// so the HTTP threads run it. On PostgreSQL a read waits a round trip to the server, or
    /// much longer when the server does not answer; on the pool, the HTTP threads meanwhile
    /// keep serving every other connection (health checks and the answers kept in memory
    /// among them). Four threads per core, at least eight: while one waits for the server
    /// the others work, and more only add switching (32 served the token row ~15 % slower).
    func handlerThreads(processors: Int) -> Int? {
        switch self {
        case .sqlite: nil
        case .postgres: max(8, 4 * processors)
        }
    }

    func open(log: Log) throws -> any Store {
        try openMigrating(log: log).store
    }

    /// Opens the store, which brings its schema up to date, and says which steps that applied.
    func openMigrating(log: Log) throws -> (store: any Store, applied: [Migration]) {
        switch self {
        case .sqlite(let path):
            let store = try SQLiteStore(SQLiteStore.Configuration(path: path)) { message in log.error(message) }
            return (store, store.appliedMigrations)
        case .postgres(let url):
            let store = try PostgresStore(PostgresStore.Configuration(url: url)) { message in log.error(message) }
            return (store, store.appliedMigrations)
        }
    }
}

extension StoreLocation {
    /// `--database` when given, else the SQLite file in the `--data` directory.
    static func databaseURL(_ url: String?, dataDirectory: String) -> String {
        url ?? "sqlite:\(dataDirectory)/hearth.db"
    }
}

/// What the data sub-commands work on: the store their `--data`/`--database` flags name,
/// opened with only errors logged, its projects, and the master key `--master-key-file`,
/// `HEARTH_MASTER_KEY` or `master.key` in `--data` gives.
struct StoredData {
    /// The flags that say where the data and its master key are.
    static let flags: Set<String> = ["data", "database", "master-key-file"]

    /// The `--data` directory, which holds the master key unless it is given elsewhere.
    let directory: String
    /// `--master-key-file`.
    let masterKeyFile: String?
    let store: any Store
    let clock = SystemClock()
    let projects: ProjectDirectory

    init(_ parsed: ParsedArguments) throws {
        directory = parsed.value("data") ?? ".hearth"
        masterKeyFile = parsed.value("master-key-file")
        let url = StoreLocation.databaseURL(parsed.value("database"), dataDirectory: directory)
        store = try StoreLocation(url).open(log: Log(minimumLevel: .error))
        do {
            projects = try ProjectDirectory(store: store, clock: clock)
        } catch {
            store.close()
            throw error
        }
    }

    /// The project `--project` names (ID or number).
    func project(_ parsed: ParsedArguments, command: String) throws -> Project {
        let name = try parsed.required("project", command: command)
        guard let project = projects.project(name) else {
            throw UsageError("hearth \(command): no project \"\(name)\"")
        }
        return project
    }

    /// The master key, if one is given; a sub-command never makes one (only `hearth serve` does).
    func existingMasterKey(environment: [String: String], command: String) throws(UsageError) -> MasterKey? {
        try DataDirectory(path: directory).existingMasterKey(
            file: masterKeyFile,
            environment: environment,
            command: command
        )
    }

    /// The master key, for a command that cannot work without it.
    func masterKey(environment: [String: String], command: String) throws(UsageError) -> MasterKey {
        try DataDirectory(path: directory).requiredMasterKey(
            file: masterKeyFile,
            environment: environment,
            command: command
        )
    }

    /// The seal of queued mail, keyed by the master key.
    func mailSeal(environment: [String: String], command: String) throws(UsageError) -> MailSeal {
        MailSeal(masterKey: try masterKey(environment: environment, command: command))
    }

    func close() { store.close() }
}
