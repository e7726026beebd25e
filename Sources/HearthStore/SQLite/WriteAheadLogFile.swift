#if canImport(Glibc)
    import Glibc
#endif

/// The SQLite write-ahead log, opened only to make what SQLite wrote to it durable:
/// `fdatasync` on any descriptor of a file flushes every write made to it. The log file keeps
/// its identity while the database is open (a checkpoint rewinds it, never replaces it).
final class WriteAheadLogFile: Sendable {
    private let file: ReadOnlyFile

    init(path: String) {
        file = ReadOnlyFile(path: path)
    }

    /// Flushes the log to the disk.
    func sync() throws(StoreError) {
        let fd = file.descriptor()
        if fd < 0 { throw StoreError(.io, "cannot open \(file.path): \(String(cString: strerror(errno)))") }
        var status: Int32
        repeat { status = fdatasync(fd) } while status != 0 && errno == EINTR
        if status != 0 { throw StoreError(.io, "fdatasync \(file.path): \(String(cString: strerror(errno)))") }
    }
}
