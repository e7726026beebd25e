import HearthBase
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

    func open(log: Log) throws -> any Store {
        switch self {
        case .sqlite(let path):
            return try SQLiteStore(SQLiteStore.Configuration(path: path)) { message in log.error(message) }
        case .postgres:
            throw UsageError("hearth: this build does not support PostgreSQL yet; use sqlite:PATH")
        }
    }
}
