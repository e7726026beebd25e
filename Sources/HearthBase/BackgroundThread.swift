#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a detached OS thread running `body`. Long-lived workers (the store's writer, the
/// log flusher, sweepers) use their own threads because blocking calls must not occupy the
/// Swift concurrency pool, which never grows past the number of cores. `name` (at most 15
/// bytes, the kernel's limit) is what `top -H`, `ps -L`, `perf` and debuggers show.
public func startBackgroundThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    precondition(name.utf8.count <= 15, "thread names are at most 15 bytes")
    final class Payload {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
    let payload = Unmanaged.passRetained(Payload(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
        &thread,
        nil,
        { raw in
            let payload = Unmanaged<Payload>.fromOpaque(raw!).takeRetainedValue()
            nameCurrentThread(payload.name)
            payload.body()
            return nil
        },
        payload
    )
    precondition(status == 0, "pthread_create failed with \(status)")
    pthread_detach(thread)
}

/// Names the calling thread. On Linux through `/proc/thread-self/comm` (see proc(5)):
/// `pthread_setname_np` is a GNU extension the Swift importer does not expose.
func nameCurrentThread(_ name: String) {
    #if canImport(Glibc)
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = name.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
    #elseif canImport(Darwin)
        _ = pthread_setname_np(name)
    #endif
}
