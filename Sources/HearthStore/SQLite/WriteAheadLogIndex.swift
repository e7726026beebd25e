/// Reads the header of SQLite's write-ahead-log index (the `-shm` file beside the database).
/// Every commit, by any connection of any process, rewrites it: a new frame count and
/// checksums, or new salts when the log rewinds. So an unchanged header means nothing was
/// committed in between. (The header is the first 48 bytes of the index; SQLite's file
/// format documentation describes it. Only equality is used here, never the fields.)
///
/// Read through SQLite's own memory map of the index's first region, taken from a connection
/// through the VFS (`SQLiteConnection.mappedLogIndex`): no system call per read (a `pread` was
/// ~2 µs of every token request), and no descriptor of the file of our own. That matters: the
/// process's POSIX locks on the file — among them the shared "dead-man switch" lock that tells
/// other processes the index is in use — are all released when *any* descriptor of the file
/// is closed, and a process that then opens the database (the CLI, a second node) takes the
/// index for abandoned and truncates it under this one (seen as a bus error in the server).
/// The map stays valid while any connection of this store is open, and reads happen only
/// through open connections.
final class WriteAheadLogIndex: Sendable {
    /// The header's 48 bytes, zero-padded.
    typealias Header = SIMD8<UInt64>
    private static let headerByteCount = 48

    /// Address of the mapped region; 0 when the index could not be mapped.
    private let address: UInt

    init(region: UnsafeRawPointer?) {
        address = UInt(bitPattern: region)
    }

    /// The current header, or `nil` when the index could not be mapped: callers then assume
    /// something changed.
    func header() -> Header? {
        guard address != 0 else { return nil }
        var header = Header()
        withUnsafeMutableBytes(of: &header) { buffer in
            buffer.copyMemory(
                from: UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: Self.headerByteCount)
            )
        }
        return header
    }
}
