import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Collects log lines in memory and writes them to a file descriptor in batches, so that a log
/// line costs a lock and a copy instead of a system call.
///
/// A background thread flushes every `flushInterval`; a writer that pushes the buffer past
/// `flushThresholdBytes` flushes on the spot (unless a flush is already running). If the
/// descriptor stops draining and `maximumBufferedBytes` is reached, new lines are dropped and
/// counted, and a notice with the count is written once output resumes — a stuck log pipe must
/// not take the server's memory with it. Call ``flush()`` before the process exits.
public final class LogWriter: Sendable {
    /// The process-wide writer for standard output.
    public static let standardOutput = LogWriter(fileDescriptor: 1)

    private let buffer: LogBuffer

    public init(
        fileDescriptor: Int32,
        flushInterval: Duration = .milliseconds(50),
        flushThresholdBytes: Int = 64 * 1024,
        maximumBufferedBytes: Int = 8 * 1024 * 1024
    ) {
        buffer = LogBuffer(
            fileDescriptor: fileDescriptor,
            flushThresholdBytes: flushThresholdBytes,
            maximumBufferedBytes: maximumBufferedBytes
        )
        LogBuffer.startFlushThread(buffer, interval: flushInterval)
    }

    deinit {
        buffer.stopped.store(true, ordering: .releasing)
        buffer.flush(waiting: true)
    }

    /// Appends one line: `build` appends the line's bytes (without the newline) to the buffer.
    /// It runs under the buffer's lock, so it should only format.
    public func appendLine(_ build: (inout [UInt8]) -> Void) {
        let mustFlush = buffer.pending.withLock { pending -> Bool in
            guard pending.bytes.count < buffer.maximumBufferedBytes else {
                pending.droppedLines += 1
                return false
            }
            build(&pending.bytes)
            pending.bytes.append(0x0A)
            return pending.bytes.count >= buffer.flushThresholdBytes
        }
        if mustFlush { buffer.flush(waiting: false) }
    }

    /// Appends one line of ready-made bytes (without the newline).
    public func appendLine(_ line: UnsafeBufferPointer<UInt8>) {
        appendLine { $0.append(contentsOf: line) }
    }

    /// Writes everything buffered so far before returning.
    public func flush() {
        buffer.flush(waiting: true)
    }
}

/// The state shared by a ``LogWriter`` and its flush thread (which keeps it alive until it
/// sees `stopped`).
private final class LogBuffer: Sendable {
    struct Pending {
        var bytes: [UInt8] = []
        var droppedLines = 0
    }

    let fileDescriptor: Int32
    let flushThresholdBytes: Int
    let maximumBufferedBytes: Int
    let pending = Mutex(Pending())
    /// The buffer being written; holding this lock is what serialises writes to the descriptor.
    let output = Mutex<[UInt8]>([])
    let stopped = Atomic<Bool>(false)

    init(fileDescriptor: Int32, flushThresholdBytes: Int, maximumBufferedBytes: Int) {
        self.fileDescriptor = fileDescriptor
        self.flushThresholdBytes = flushThresholdBytes
        self.maximumBufferedBytes = maximumBufferedBytes
    }

    /// Swaps the pending bytes out under the short lock and writes them under the output lock.
    /// With `waiting: false` it gives up at once if another flush holds the output lock.
    func flush(waiting: Bool) {
        if waiting {
            output.withLock { drain(into: &$0) }
        } else {
            _ = output.withLockIfAvailable { drain(into: &$0) }
        }
    }

    private func drain(into spare: inout [UInt8]) {
        let dropped = pending.withLock { pending in
            swap(&pending.bytes, &spare)
            defer { pending.droppedLines = 0 }
            return pending.droppedLines
        }
        if dropped > 0 { Self.appendDropNotice(count: dropped, to: &spare) }
        Self.writeAll(spare, to: fileDescriptor)
        // Keep the capacity for the next swap, unless a burst left it oversized.
        if spare.capacity > 4 * flushThresholdBytes {
            spare = []
        } else {
            spare.removeAll(keepingCapacity: true)
        }
    }

    private static func appendDropNotice(count: Int, to bytes: inout [UInt8]) {
        JSONWriter.write(into: &bytes) { writer in
            writer.beginObject()
            writer.key("ts")
            var stamp: [UInt8] = []
            Timestamp.appendISO8601(milliseconds: SystemClock().nowMilliseconds(), to: &stamp)
            writer.string(String(decoding: stamp, as: UTF8.self))
            writer.key("level")
            writer.string("warning")
            writer.key("msg")
            writer.string("log lines dropped: output was not draining")
            writer.key("dropped")
            writer.int(Int64(count))
            writer.endObject()
        }
        bytes.append(0x0A)
    }

    /// Writes all of `bytes`, retrying interrupted and partial writes; on a hard error (closed
    /// descriptor, full disk) the batch is dropped, since logging must never stop the server.
    private static func writeAll(_ bytes: [UInt8], to fileDescriptor: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            var stalls = 0
            while offset < raw.count {
                let written = write(fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                    continue
                }
                let error = errno
                if written < 0 && error == EINTR { continue }
                if written < 0 && (error == EAGAIN || error == EWOULDBLOCK) && stalls < 50 {
                    stalls += 1
                    var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, 100)
                    continue
                }
                return
            }
        }
    }

    static func startFlushThread(_ buffer: LogBuffer, interval: Duration) {
        let nanoseconds = max(
            1_000_000,
            interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000
        )
        let context = Unmanaged.passRetained(FlushThreadContext(buffer: buffer, intervalNanoseconds: nanoseconds))
        #if canImport(Glibc)
            var thread = pthread_t()
            let started = pthread_create(
                &thread,
                nil,
                { raw in
                    Unmanaged<FlushThreadContext>.fromOpaque(raw!).takeRetainedValue().run()
                    return nil
                },
                context.toOpaque()
            )
            if started == 0 { pthread_detach(thread) } else { context.release() }
        #else
            var thread: pthread_t? = nil
            let started = pthread_create(
                &thread,
                nil,
                { raw in
                    Unmanaged<FlushThreadContext>.fromOpaque(raw).takeRetainedValue().run()
                    return nil
                },
                context.toOpaque()
            )
            if started == 0, let thread { pthread_detach(thread) } else { context.release() }
        #endif
    }
}

private final class FlushThreadContext: Sendable {
    let buffer: LogBuffer
    let intervalNanoseconds: Int64

    init(buffer: LogBuffer, intervalNanoseconds: Int64) {
        self.buffer = buffer
        self.intervalNanoseconds = intervalNanoseconds
    }

    func run() {
        nameCurrentThread("log-flush")
        // Sleep in short slices so that a writer's deinit ends this thread promptly even when
        // the flush interval is long.
        let slice: Int64 = min(intervalNanoseconds, 50_000_000)
        var sinceFlush: Int64 = 0
        while !buffer.stopped.load(ordering: .acquiring) {
            var delay = timespec(tv_sec: Int(slice / 1_000_000_000), tv_nsec: Int(slice % 1_000_000_000))
            var remaining = timespec()
            while nanosleep(&delay, &remaining) != 0 && errno == EINTR { delay = remaining }
            sinceFlush += slice
            if sinceFlush >= intervalNanoseconds {
                buffer.flush(waiting: true)
                sinceFlush = 0
            }
        }
    }
}
