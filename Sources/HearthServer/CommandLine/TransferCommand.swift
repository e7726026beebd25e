import HearthBase
import HearthCore
import HearthStore

#if canImport(Glibc)
    import Glibc
#endif

/// `hearth migrate`, `hearth export` and `hearth import`: bring a database's schema up to
/// date, and move a whole data set between databases (SQLite and PostgreSQL, either way).
enum TransferCommand {
    static let usage = """
          migrate [--data DIR | --database URL]
                                         apply the schema steps the database lacks
          export [--data DIR | --database URL] [--master-key-file FILE] FILE
                                         write every stored row to FILE (sealed values stay sealed)
          import [--data DIR | --database URL] [--master-key-file FILE] [--replace] FILE
                                         load FILE into an empty database (--replace: empty it first)
        """

    static func run(_ command: String, _ arguments: [String], environment: [String: String]) throws -> Int32 {
        let parsed = try ParsedArguments(
            arguments,
            command: command,
            valued: StoredData.flags,
            switches: command == "import" ? ["replace"] : []
        )
        let directory = DataDirectory(path: parsed.value("data") ?? ".hearth")
        if parsed.value("database") == nil && command != "export" { try directory.prepare() }
        let location = try StoreLocation(
            StoreLocation.databaseURL(parsed.value("database"), dataDirectory: directory.path)
        )
        if command == "export", case .sqlite(let database) = location, access(database, F_OK) != 0 {
            // Opening would make an empty database, and the export would quietly hold nothing.
            throw UsageError("hearth export: there is no database at \(database)")
        }
        let log = Log(minimumLevel: .error)

        if command == "migrate" {
            guard parsed.positional.isEmpty else { throw UsageError("hearth migrate: takes no file") }
            let (store, applied) = try location.openMigrating(log: log)
            defer { store.close() }
            for step in applied { print("applied step \(step.version): \(step.name)") }
            let steps = try store.read { try $0.schemaSteps() }.count
            print(applied.isEmpty ? "the schema is up to date at \(steps) steps" : "the schema is at \(steps) steps")
            return 0
        }

        guard parsed.positional.count == 1, let path = parsed.positional.first, !path.isEmpty else {
            throw UsageError("hearth \(command): name one data set FILE (see hearth --help)")
        }
        // The key the data set's signing keys are sealed with.
        let masterKey = try directory.requiredMasterKey(
            file: parsed.value("master-key-file"),
            environment: environment,
            command: command
        )
        let store = try location.open(log: log)
        defer { store.close() }
        let transfer = DataSetTransfer(store: store, masterKey: masterKey, command: "hearth \(command)")
        let counts: [Int]
        if command == "export" {
            counts = try transfer.export(to: path)
            print("exported \(counts.reduce(0, +)) rows to \(path)")
        } else {
            counts = try transfer.import(from: path, replacing: parsed.flag("replace"))
            print("imported \(counts.reduce(0, +)) rows from \(path)")
        }
        for line in DataSetTransfer.countsByArea(counts) { print(line) }
        return 0
    }
}
