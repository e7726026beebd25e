import FoundationEssentials
import HearthCore

/// The data directory (`--data`): the SQLite database and the master key live here.
struct DataDirectory {
    let path: String

    /// Creates the directory if needed and proves it is writable, so a bad `--data` fails at
    /// once with a readable line instead of at the first write.
    func prepare() throws(UsageError) {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/\(component)"
            if mkdir(built, 0o700) != 0 && errno != EEXIST {
                throw UsageError(
                    "hearth serve: cannot create data directory \(path): \(String(cString: strerror(errno)))"
                )
            }
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw UsageError("hearth serve: cannot create data directory \(path): a file is in the way")
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw UsageError(
                "hearth serve: data directory \(path) is not writable: \(String(cString: strerror(errno)))"
            )
        }
    }

    /// The master key: `HEARTH_MASTER_KEY` if set, else `master.key` here, made on first start.
    func masterKey(environment: [String: String]) throws(UsageError) -> MasterKey {
        if let key = try existingMasterKey(environment: environment) { return key }
        let file = "\(path)/master.key"
        let manager = FileManager.default
        let key = MasterKey.generate()
        guard
            manager.createFile(
                atPath: file,
                contents: Data((key.text + "\n").utf8),
                attributes: [.posixPermissions: 0o600]
            )
        else { throw UsageError("hearth: cannot write \(file)") }
        return key
    }

    /// The master key from `HEARTH_MASTER_KEY` or `master.key` here; `nil` when there is
    /// neither (for commands that must open what a key sealed, never make a new one).
    func existingMasterKey(environment: [String: String]) throws(UsageError) -> MasterKey? {
        if let text = environment["HEARTH_MASTER_KEY"] {
            guard let key = MasterKey(text: text) else {
                throw UsageError("hearth: HEARTH_MASTER_KEY must be 32 bytes in base64 or base64url")
            }
            return key
        }
        let file = "\(path)/master.key"
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        guard let key = MasterKey(text: String(decoding: data, as: UTF8.self)) else {
            throw UsageError("hearth: \(file) does not hold a 32-byte key in base64url")
        }
        return key
    }
}

#if canImport(Glibc)
    import Glibc
#endif
