import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The SQLite write-ahead log, opened only to make what SQLite wrote to it durable:
/// `fdatasync` on any descriptor of a file flushes every write made to it. The log file keeps
/// its identity while the database is open (a checkpoint rewinds it, never replaces it).
final class WriteAheadLogFile: Sendable {
    private let path: String
    /// Opened read-only on the first sync, kept until release; -1 until then.
    private let descriptor = Mutex<Int32>(-1)

    init(path: String) {
        self.path = path
    }

    deinit {
        let fd = descriptor.withLock { $0 }
        if fd >= 0 { close(fd) }
    }

    /// Flushes the log to the disk.
    func sync() throws(StoreError) {
        let fd = descriptor.withLock { fd in
            if fd < 0 { fd = open(path, O_RDONLY | O_CLOEXEC) }
            return fd
        }
        if fd < 0 { throw StoreError(.io, "cannot open \(path): \(String(cString: strerror(errno)))") }
        var status: Int32
        repeat { status = fdatasync(fd) } while status != 0 && errno == EINTR
        if status != 0 { throw StoreError(.io, "fdatasync \(path): \(String(cString: strerror(errno)))") }
    }
}
