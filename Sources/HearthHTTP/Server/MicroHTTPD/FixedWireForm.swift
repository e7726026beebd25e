import CMicroHTTPD
import Synchronization

/// The libmicrohttpd response object for a ``Response/fixed()`` response, built on first use
/// and queued again for every later request (libmicrohttpd reference-counts responses, so one
/// object may be in flight on several connections at once). Saves the body copy, the header
/// allocations and their release on every request.
final class FixedWireForm: Sendable {
    /// The response, once built; `MHD_Response` has no Swift type, hence the raw pointer.
    private let built = Mutex<UnsafeMutableRawPointer?>(nil)

    /// The response object for `response`, building it with `make` the first time.
    func mhdResponse(_ make: () -> OpaquePointer?) -> OpaquePointer? {
        built.withLock { slot in
            if let slot { return OpaquePointer(slot) }
            let made = make()
            slot = made.map { UnsafeMutableRawPointer($0) }
            return made
        }
    }

    deinit {
        if let response = built.withLock({ $0 }) { MHD_destroy_response(OpaquePointer(response)) }
    }
}
