public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tmpfs of a few megabytes under the temporary directory, for tests of a full disk:
/// ``fill()`` takes its last free byte, ``free()`` gives the space back. Mounting needs root
/// (CI runs as root); elsewhere ``mount(megabytes:label:)`` says so and answers nil.
public struct SmallDisk: Sendable {
    /// Where the tmpfs is mounted.
    public let directory: URL
    private var filler: String { directory.appendingPathComponent("filler").path }

    /// Mounts a new tmpfs, or prints why `label` is skipped and answers nil when not root.
    public static func mount(megabytes: Int, label: String) throws -> SmallDisk? {
        guard getuid() == 0 else {
            print("\(label): skipped, mounting a tmpfs needs root (CI runs as root)")
            return nil
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hearth-small-disk-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            try run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", directory.path])
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        return SmallDisk(directory: directory)
    }

    /// Appends zeros to a filler file until the file system is full (again, if space was
    /// freed since).
    public func fill() {
        let descriptor = open(filler, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 4_096)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Removes the filler file.
    public func free() { unlink(filler) }

    /// Unmounts the tmpfs and removes its directory (close what is open on it first).
    public func unmount() {
        try? Self.run("/bin/umount", [directory.path])
        try? FileManager.default.removeItem(at: directory)
    }

    private struct CommandFailed: Error, CustomStringConvertible {
        let description: String
    }

    private static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailed(description: "\(executable) \(arguments.joined(separator: " ")) failed")
        }
    }
}
