#if canImport(Glibc)
    import Glibc
#endif

/// Reads the header of SQLite's write-ahead-log index (the `-shm` file beside the database).
/// Every commit, by any connection of any process, rewrites it: a new frame count and
/// checksums, or new salts when the log rewinds. So an unchanged header means nothing was
/// committed in between. (The header is the first 48 bytes of the index; SQLite's file
/// format documentation describes it. Only equality is used here, never the fields.)
///
/// Read with `pread`, not a memory map: the file may be truncated when the last connection
/// closes, and a mapped read past its end would be a crash.
final class WriteAheadLogIndex: Sendable {
    /// The header's 48 bytes, zero-padded.
    typealias Header = SIMD8<UInt64>
    private static let headerByteCount = 48

    private let file: ReadOnlyFile

    init(databasePath: String) {
        file = ReadOnlyFile(path: databasePath + "-shm")
    }

    /// The current header, or `nil` when it cannot be read (no index yet, or an I/O error):
    /// callers then assume something changed.
    func header() -> Header? {
        let fd = file.descriptor()
        guard fd >= 0 else { return nil }
        var header = Header()
        let count = withUnsafeMutableBytes(of: &header) { buffer in
            pread(fd, buffer.baseAddress, Self.headerByteCount, 0)
        }
        return count == Self.headerByteCount ? header : nil
    }
}
