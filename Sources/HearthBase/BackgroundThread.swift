#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a detached OS thread running `body`. Long-lived workers (the store's writer, the
/// log flusher, sweepers) use their own threads because blocking calls must not occupy the
/// Swift concurrency pool, which never grows past the number of cores.
public func startBackgroundThread(_ body: @escaping @Sendable () -> Void) {
    final class Payload {
        let body: @Sendable () -> Void
        init(body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let payload = Unmanaged.passRetained(Payload(body: body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
        &thread,
        nil,
        { raw in
            let payload = Unmanaged<Payload>.fromOpaque(raw!).takeRetainedValue()
            payload.body()
            return nil
        },
        payload
    )
    precondition(status == 0, "pthread_create failed with \(status)")
    pthread_detach(thread)
}
