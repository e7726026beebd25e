/// Something that answers requests. It runs synchronously on a server worker thread, so it
/// must be `Sendable` and should not block for long.
public protocol HTTPResponder: Sendable {
    func respond(to request: Request) -> Response
}

/// Adapts a closure to ``HTTPResponder``.
struct ClosureResponder: HTTPResponder {
    let handler: @Sendable (Request) -> Response

    func respond(to request: Request) -> Response { handler(request) }
}
