#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// One open text file, read or written a line at a time through C's buffered streams; it owns
/// its `FILE` and closes it in `deinit`. A file made for writing is written beside its
/// destination (`PATH.partial`, mode 0600: a data set holds every account) and takes the
/// destination's name only in `commit()`, so a failed export leaves no half-written file.
final class TextFile {
    /// A failed system call, with the path and the system's reason.
    struct Failure: Error, CustomStringConvertible {
        let description: String

        init(_ action: String, _ path: String) {
            description = "cannot \(action) \(path): \(String(cString: strerror(errno)))"
        }
    }

    private let stream: UnsafeMutablePointer<FILE>
    private var isOpen = true
    let path: String
    /// Where the file is written until `commit()`; `nil` for a file read, or once committed.
    private var partialPath: String?
    private var line: UnsafeMutablePointer<CChar>?
    private var lineCapacity = 0

    private init(stream: UnsafeMutablePointer<FILE>, path: String, partialPath: String?) {
        self.stream = stream
        self.path = path
        self.partialPath = partialPath
    }

    /// Opens `path` to read.
    static func reading(_ path: String) throws(Failure) -> TextFile {
        guard let stream = fopen(path, "r") else { throw Failure("open", path) }
        return TextFile(stream: stream, path: path, partialPath: nil)
    }

    /// Starts writing what `commit()` will put at `path`.
    static func writing(_ path: String) throws(Failure) -> TextFile {
        let partial = path + ".partial"
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure("create", partial) }
        guard let stream = fdopen(descriptor, "w") else {
            close(descriptor)
            throw Failure("open", partial)
        }
        return TextFile(stream: stream, path: path, partialPath: partial)
    }

    deinit {
        if isOpen { fclose(stream) }
        if let partialPath { unlink(partialPath) }
        free(line)
    }

    func write(_ text: String) throws(Failure) {
        var text = text
        let written = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, stream) }
        guard written == text.utf8.count else { throw Failure("write", partialPath ?? path) }
    }

    /// The next line without its `\n`, or `nil` at the end of the file.
    func readLine() throws(Failure) -> String? {
        let length = getline(&line, &lineCapacity, stream)
        guard length >= 0, let line else {
            if ferror(stream) != 0 { throw Failure("read", path) }
            return nil
        }
        var count = length
        if count > 0 && line[count - 1] == 0x0A { count -= 1 }
        return line.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }

    /// Makes what was written durable and gives it the destination's name.
    func commit() throws(Failure) {
        guard let partialPath else { return }
        guard fflush(stream) == 0, fsync(fileno(stream)) == 0 else { throw Failure("write", partialPath) }
        isOpen = false
        guard fclose(stream) == 0 else { throw Failure("write", partialPath) }
        guard rename(partialPath, path) == 0 else { throw Failure("rename \(partialPath) to", path) }
        self.partialPath = nil
    }
}
