import Synchronization

/// The answer to a request, delivered later and from any thread. A handler that must wait for
/// something slow but not busy — a durable store write, above all — answers
/// ``Response/deferred(_:)`` and fulfils the promise when the work is done; the server's
/// worker thread serves other connections meanwhile (libmicrohttpd suspends the connection
/// and resumes it on fulfilment).
public final class ResponsePromise: Sendable {
    private let fulfilment: Mutex<(@Sendable (Response) -> Void)?>

    init(_ fulfil: @escaping @Sendable (Response) -> Void) {
        fulfilment = Mutex(fulfil)
    }

    /// Delivers the response. Only the first call counts; later ones are ignored.
    public func succeed(_ response: Response) {
        let fulfil = fulfilment.withLock { stored in
            defer { stored = nil }
            return stored
        }
        fulfil?(response)
    }
}

/// What ``Response/deferred(_:)`` carries: the work to start, and the changes the router
/// makes to every response (headers), applied once the real response exists.
struct Deferral: Sendable {
    let start: @Sendable (ResponsePromise) -> Void
    var transforms: [@Sendable (inout Response) -> Void] = []
}

extension Response {
    /// A response that arrives later. `start` runs at once, on the worker thread, and must
    /// arrange for the promise to be fulfilled exactly once (a completion handler does it);
    /// the worker thread is free as soon as `start` returns.
    public static func deferred(_ start: @escaping @Sendable (ResponsePromise) -> Void) -> Response {
        var response = Response(status: .ok)
        response.deferral = Deferral(start: start)
        return response
    }

    /// Delivers this response through `promise`: at once, or, when it is itself deferred, once
    /// it arrives, with its transforms applied.
    func deliver(to promise: ResponsePromise) {
        guard let deferral else { return promise.succeed(self) }
        deferral.start(
            ResponsePromise { response in
                var response = response
                response.deferral = nil
                for transform in deferral.transforms { transform(&response) }
                promise.succeed(response)
            }
        )
    }

    /// Whether the response is still to come.
    public var isDeferred: Bool { deferral != nil }

    /// Applies `change` now, or to the eventual response when this one is deferred.
    public mutating func modify(_ change: @escaping @Sendable (inout Response) -> Void) {
        if deferral != nil {
            deferral!.transforms.append(change)
        } else {
            change(&self)
        }
    }
}
