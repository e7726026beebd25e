/// An error that knows which response it becomes. A handler throws it and the ``Router``
/// answers with `response()`; any other error becomes a 500 `INTERNAL` envelope whose details
/// are logged, never sent.
public protocol HTTPResponseError: Error {
    func response() -> Response
}
