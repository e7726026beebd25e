import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Reads the header of SQLite's write-ahead-log index (the `-shm` file beside the database).
/// Every commit, by any connection of any process, rewrites it: a new frame count and
/// checksums, or new salts when the log rewinds. So an unchanged header means nothing was
/// committed in between. (The header is the first 48 bytes of the index; SQLite's file
/// format documentation describes it. Only equality is used here, never the fields.)
///
/// Read through a shared memory map of the file's first page, as SQLite itself reads the index:
/// no system call per read (a `pread` was ~2 µs of every token request). The map is made once
/// the file has content, so its first page is backed. A process truncates the index only when it
/// finds no other process using it (SQLite's dead-man-switch lock, held by this process while
/// any of its connections is open, and reads happen only through open connections), so the
/// mapped page stays backed while it is read.
final class WriteAheadLogIndex: Sendable {
    /// The header's 48 bytes, zero-padded.
    typealias Header = SIMD8<UInt64>
    private static let headerByteCount = 48

    private let path: String
    /// Address of the mapped first page; 0 until mapped.
    private let mapped = Atomic<UInt>(0)
    private let mapping = Mutex<Void>(())
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    init(databasePath: String) {
        path = databasePath + "-shm"
    }

    deinit {
        let address = mapped.load(ordering: .acquiring)
        if address != 0 { munmap(UnsafeMutableRawPointer(bitPattern: address), Self.pageSize) }
    }

    /// The current header, or `nil` when it cannot be read (no index yet, or an I/O error):
    /// callers then assume something changed.
    func header() -> Header? {
        var address = mapped.load(ordering: .acquiring)
        if address == 0 {
            address = map()
            if address == 0 { return nil }
        }
        var header = Header()
        withUnsafeMutableBytes(of: &header) { buffer in
            buffer.copyMemory(
                from: UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: Self.headerByteCount)
            )
        }
        return header
    }

    /// Maps the file's first page once it has content; 0 when it cannot (yet).
    private func map() -> UInt {
        mapping.withLock { _ in
            let existing = mapped.load(ordering: .acquiring)
            if existing != 0 { return existing }
            // The map keeps the file; the descriptor is not needed after it.
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return 0 }
            defer { close(fd) }
            var status = stat()
            guard fstat(fd, &status) == 0, status.st_size >= Self.headerByteCount else { return 0 }
            guard let pointer = mmap(nil, Self.pageSize, PROT_READ, MAP_SHARED, fd, 0), pointer != MAP_FAILED else {
                return 0
            }
            let address = UInt(bitPattern: pointer)
            mapped.store(address, ordering: .releasing)
            return address
        }
    }
}
