import Glibc

/// A non-blocking, close-on-exec pipe that wakes a thread sleeping in `poll`: the thread polls
/// ``readDescriptor``, others call ``wake()``. Closed when released.
final class WakePipe: Sendable {
    /// The end to poll for `POLLIN`; -1 when the pipe could not be made.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
        }
        readDescriptor = ends[0]
        writeDescriptor = ends[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Whether the pipe exists (a thread that relies on it may start).
    var isOpen: Bool { readDescriptor >= 0 }

    /// Makes ``readDescriptor`` readable.
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Reads every pending wake-up, so the next `poll` sleeps again.
    func drain() {
        var drained = [UInt8](repeating: 0, count: 64)
        while read(readDescriptor, &drained, drained.count) > 0 {}
    }
}
