public import HearthBase

/// What a handler answers: status, header fields and body bytes. `Content-Length` and `Date`
/// are added by the server.
public struct Response: Sendable {
    public var status: HTTPStatus {
        didSet { wireForm = nil }
    }
    public var headers: HTTPHeaders {
        didSet { wireForm = nil }
    }
    public var body: [UInt8] {
        didSet { wireForm = nil }
    }
    /// Set by ``fixed()``: the server's reusable encoding of this exact response. Any change to
    /// the response drops it.
    private(set) var wireForm: FixedWireForm?
    /// Set by ``deferred(_:)``: the response is produced later by the work it starts.
    var deferral: Deferral?

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Marks a response that never changes — a health check, a key set, a well-known file —
    /// so that the server builds its wire form once and reuses it for every request that
    /// returns this value (keep it in a `let` and return that). Changing any property of the
    /// returned value turns it back into an ordinary response.
    public func fixed() -> Response {
        var copy = self
        copy.wireForm = FixedWireForm()
        return copy
    }

    public static let jsonContentType = "application/json; charset=UTF-8"

    /// A JSON response. It carries `Cache-Control: no-store`: JSON answers here hold tokens,
    /// codes and account data that no shared cache or browser history should keep (RFC 6749
    /// §5.1 asks the same of token responses). Replace the header for cacheable documents.
    public static func json(_ value: JSONValue, status: HTTPStatus = .ok) -> Response {
        json(bytes: value.serialized(), status: status)
    }

    /// A JSON response from bytes already serialised (for example by a ``JSONWriter``).
    public static func json(bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: jsonHeaders, body: bytes)
    }

    /// Shared, so that a JSON response costs no header allocation.
    private static let jsonHeaders = HTTPHeaders([
        ("Content-Type", jsonContentType), ("Cache-Control", "no-store"),
    ])

    public static func text(_ text: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    public static func html(_ html: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(html.utf8))
    }

    /// A redirect to `location` (302 by default; 303 after a form POST, 301/308 for permanent moves).
    public static func redirect(to location: String, status: HTTPStatus = .found) -> Response {
        Response(status: status, headers: ["Location": location])
    }

    public static func empty(_ status: HTTPStatus = .noContent) -> Response {
        Response(status: status)
    }
}
