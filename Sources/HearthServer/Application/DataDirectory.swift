import FoundationEssentials
import HearthCore
import HearthStore

#if canImport(Glibc)
    import Glibc
#endif

/// The data directory (`--data`): the SQLite database and, unless given elsewhere, the master key.
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

    /// `master.key` here: the key's place when neither `--master-key-file` nor
    /// `HEARTH_MASTER_KEY` gives it.
    var masterKeyPath: String { "\(path)/master.key" }

    /// The master key, looked up in this order: `file` (`--master-key-file`, which must hold
    /// one), `HEARTH_MASTER_KEY`, then `master.key` here. `nil` when there is none; only
    /// `hearth serve` then makes one (``makeMasterKey(unlessSealedKeysIn:)``).
    ///
    /// - Parameter warn: told once when `file` is readable by group or others. A warning, not
    ///   a refusal: mounted secrets are often 0644 or 0444 (Kubernetes, Docker), and whoever
    ///   places the file chooses who may read it.
    func existingMasterKey(file: String?, environment: [String: String], warn: (String) -> Void)
        throws(UsageError) -> MasterKey?
    {
        let variable = environment["HEARTH_MASTER_KEY"]
        if let file {
            guard variable == nil else {
                throw UsageError("hearth: give the master key once: --master-key-file or HEARTH_MASTER_KEY, not both")
            }
            var status = stat()
            guard stat(file, &status) == 0, let data = FileManager.default.contents(atPath: file) else {
                throw UsageError(
                    "hearth: --master-key-file \(file) cannot be read: \(String(cString: strerror(errno)))"
                )
            }
            guard let key = MasterKey(text: String(decoding: data, as: UTF8.self)) else {
                throw UsageError("hearth: --master-key-file \(file) does not hold a 32-byte key in base64url")
            }
            if status.st_mode & 0o077 != 0 {
                warn(
                    "--master-key-file \(file) is readable by group or others (mode "
                        + "\(String(status.st_mode & 0o777, radix: 8))); only its owner should read it (chmod 600)"
                )
            }
            return key
        }
        if let variable {
            guard let key = MasterKey(text: variable) else {
                throw UsageError("hearth: HEARTH_MASTER_KEY must be 32 bytes in base64 or base64url")
            }
            return key
        }
        guard let data = FileManager.default.contents(atPath: masterKeyPath) else { return nil }
        guard let key = MasterKey(text: String(decoding: data, as: UTF8.self)) else {
            throw UsageError("hearth: \(masterKeyPath) does not hold a 32-byte key in base64url")
        }
        return key
    }

    /// The master key for a sub-command (which never makes one): as `existingMasterKey`, with
    /// its warning on standard error.
    func existingMasterKey(file: String?, environment: [String: String], command: String)
        throws(UsageError) -> MasterKey?
    {
        try existingMasterKey(file: file, environment: environment) { warning in
            HearthCommand.writeError("hearth \(command): \(warning)")
        }
    }

    /// The master key for a sub-command that cannot work without one.
    func requiredMasterKey(file: String?, environment: [String: String], command: String)
        throws(UsageError) -> MasterKey
    {
        guard let key = try existingMasterKey(file: file, environment: environment, command: command) else {
            throw UsageError(
                "hearth \(command): no master key: pass --master-key-file FILE, set HEARTH_MASTER_KEY, "
                    + "or pass --data DIR holding master.key"
            )
        }
        return key
    }

    /// Makes `master.key` here, on a start that found no key anywhere, unless `store` already
    /// holds signing keys: a new key could not open them, and the node would serve with keys
    /// of its own beside its cluster's. Asked after the store is open, so a refused start
    /// leaves no key file behind.
    func makeMasterKey(unlessSealedKeysIn store: any Store) throws(UsageError) -> MasterKey {
        let holdsKeys: Bool
        do {
            holdsKeys = try store.read { try $0.holdsSigningKeys() }
        } catch {
            throw UsageError("hearth serve: cannot read the stored signing keys: \(error)")
        }
        guard !holdsKeys else {
            throw UsageError(
                "hearth serve: the database holds signing keys sealed with a master key this node was not given; "
                    + "give the cluster's master key with --master-key-file or HEARTH_MASTER_KEY"
            )
        }
        let key = MasterKey.generate()
        guard
            FileManager.default.createFile(
                atPath: masterKeyPath,
                contents: Data((key.text + "\n").utf8),
                attributes: [.posixPermissions: 0o600]
            )
        else { throw UsageError("hearth: cannot write \(masterKeyPath)") }
        return key
    }
}
