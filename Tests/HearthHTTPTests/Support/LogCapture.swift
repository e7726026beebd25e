import Glibc
import HearthBase

/// A ``LogWriter`` into a pipe whose lines the test reads back.
final class LogCapture: Sendable {
    let writer: LogWriter
    private let readEnd: Int32
    private let writeEnd: Int32

    init() {
        var descriptors: [Int32] = [0, 0]
        precondition(pipe(&descriptors) == 0)
        readEnd = descriptors[0]
        writeEnd = descriptors[1]
        // Big enough that a test's lines never block the writer.
        _ = fcntl(writeEnd, 1031 /* F_SETPIPE_SZ, a GNU extension Glibc does not export */, 1 << 20)
        writer = LogWriter(fileDescriptor: writeEnd, flushInterval: .seconds(3600))
    }

    /// Closes the read end only. The writer (held by every `Log` made from `log`, so by any
    /// server given it) may outlive the capture: had the write end been closed, the kernel
    /// would hand its number to the next socket opened, and the writer's late lines (a
    /// server's "listening" or access-log line) would land in some other test's connection.
    /// Without a reader those lines fail with `EPIPE` and are dropped; the write end's
    /// descriptor stays open for the rest of the test process.
    deinit {
        close(readEnd)
    }

    /// A log for servers whose lines no test reads: writes to `/dev/null`, whose descriptor is
    /// never closed.
    static let discarding: Log = {
        let descriptor = open("/dev/null", O_WRONLY | O_CLOEXEC)
        precondition(descriptor >= 0)
        return Log(writer: LogWriter(fileDescriptor: descriptor, flushInterval: .seconds(3600)))
    }()

    var log: Log { Log(writer: writer) }

    /// Flushes the writer and returns every line written since the last call.
    func lines() -> [String] {
        writer.flush()
        var collected: [UInt8] = []
        var state = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        while poll(&state, 1, 0) > 0 {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(readEnd, &chunk, chunk.count)
            guard count > 0 else { break }
            collected += chunk[..<count]
        }
        return String(decoding: collected, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
