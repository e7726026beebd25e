import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A file opened read-only on first use and kept open until released. Safe to share between
/// threads: the descriptor is only ever opened once.
final class ReadOnlyFile: Sendable {
    let path: String
    private let openDescriptor = Mutex<Int32>(-1)

    init(path: String) {
        self.path = path
    }

    deinit {
        let fd = openDescriptor.withLock { $0 }
        if fd >= 0 { close(fd) }
    }

    /// The open descriptor, opening the file the first time; -1 (with `errno` set) when it
    /// cannot be opened (the next call tries again).
    func descriptor() -> Int32 {
        openDescriptor.withLock { fd in
            if fd < 0 { fd = open(path, O_RDONLY | O_CLOEXEC) }
            return fd
        }
    }
}
