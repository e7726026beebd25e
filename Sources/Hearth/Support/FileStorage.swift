import Foundation

/// ``SecureStorage`` in files: one file per key, mode 0600, in a directory of mode 0700.
///
/// A write goes to a temporary file which is then renamed over the entry, so the entry is
/// always whole.
struct FileStorage: SecureStorage {
    let directory: URL

    /// The user's data directory for Hearth: `$XDG_DATA_HOME/hearth`, else
    /// `~/.local/share/hearth` (the XDG base-directory default).
    static func userDataDirectory() -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("hearth", isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".local/share/hearth", isDirectory: true)
    }

    func read(_ key: String) throws -> Data? {
        let url = fileURL(key)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw StorageError(description: "Could not read \(url.path): \(error)")
        }
    }

    func write(_ data: Data, for key: String) throws {
        let manager = FileManager.default
        do {
            try manager.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw StorageError(description: "Could not create \(directory.path): \(error)")
        }
        let destination = fileURL(key)
        do {
            // `.atomic` writes a temporary file and renames it over the entry, so the entry is
            // always whole. The renamed file gets the process's default mode; the mode is set
            // to 0600 at once, and the 0700 directory keeps other users out in between.
            try data.write(to: destination, options: .atomic)
            try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: destination.path)
        } catch {
            throw StorageError(description: "Could not write \(destination.path): \(error)")
        }
    }

    func remove(_ key: String) throws {
        let url = fileURL(key)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw StorageError(description: "Could not remove \(url.path): \(error)")
        }
    }

    private func fileURL(_ key: String) -> URL {
        directory.appendingPathComponent("\(key).json")
    }
}
