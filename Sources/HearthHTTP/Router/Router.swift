public import HearthBase

/// Maps method and path to a handler, and turns everything that is not a plain answer into the
/// right response: unknown path → 404, known path with another method → 405 with `Allow`,
/// `HEAD` → the `GET` handler (the server sends no body), `OPTIONS` → a CORS preflight answer,
/// thrown ``HTTPResponseError``s → their response, any other error → a logged 500.
///
/// Paths are matched segment by segment on a trie (see ``add(_:_:_:)`` for the pattern
/// syntax), after percent-decoding each segment and dropping one trailing slash and any alias
/// prefix. It runs in-process: `router.respond(to: request)` needs no socket.
public struct Router: HTTPResponder {
    public typealias Handler = @Sendable (Request) throws -> Response

    /// Where a handler runs when the router has a ``HandlerPool``; without one, every handler
    /// runs on the server's event thread.
    public enum Placement: Sendable {
        /// On the pool: the handler may block (it reads the store).
        case pool
        /// On the event thread, at once: the handler answers from memory and never blocks.
        case eventThread
    }

    /// The host prefixes Firebase emulator clients put before the API path.
    public static let firebaseAliasPrefixes = [
        "/identitytoolkit.googleapis.com",
        "/securetoken.googleapis.com",
        "/firebaseinstallations.googleapis.com",
        "/www.googleapis.com",
    ]

    private var root = RouteNode()
    /// Every registered method and pattern, in registration order: what the API description
    /// is checked against.
    public private(set) var registeredRoutes: [(method: HTTPMethod, pattern: String)] = []
    /// Alias prefixes, as segments, stripped from a path before matching.
    private let aliases: [[Substring]]
    /// The byte length of each alias's first segment, to skip most comparisons.
    private let aliasFirstLengths: [Int]
    /// `nil` disables CORS handling: `OPTIONS` then only reaches explicit routes.
    public var cors: CORSPolicy?
    /// Where unexpected handler errors are reported.
    public var log: Log
    /// Who answers the misses under a path prefix, longest prefix first.
    private var missHandlers: [(prefix: [Substring], handler: MissHandler)] = []
    /// Where handlers placed `.pool` run; `nil`: on the event thread.
    public let handlerPool: HandlerPool?

    /// Why no handler took a request.
    public enum Miss: Sendable, Equatable {
        /// No route has this path.
        case notFound
        /// Routes have this path, for these methods (the `Allow` header's value).
        case methodNotAllowed(allow: String)
    }

    /// Answers a request no handler took (the router adds `Allow` to a 405).
    public typealias MissHandler = @Sendable (Request, Miss) -> Response

    public init(
        aliasPrefixes: [String] = [],
        cors: CORSPolicy? = .permissive,
        log: Log = Log(),
        handlerPool: HandlerPool? = nil
    ) {
        self.handlerPool = handlerPool
        aliases = aliasPrefixes.map { RequestPath.segments(of: $0) }.filter { !$0.isEmpty }
        aliasFirstLengths = aliases.map { $0[0].utf8.count }
        self.cors = cors
        self.log = log
    }

    /// Registers `handler` for `method` at `pattern`.
    ///
    /// A pattern starts with `/`; each segment is a literal (`accounts:sendOobCode`), a
    /// `{parameter}` or a `{parameter}:verb`. Literals beat parameters where both match.
    /// Registering the same method and pattern twice is a programming error.
    /// `placement` says where the handler runs when the router has a handler pool.
    public mutating func add(
        _ method: HTTPMethod,
        _ pattern: String,
        on placement: Placement = .pool,
        _ handler: @escaping Handler
    ) {
        root.insert(
            RoutePattern(pattern).segments[...],
            RouteNode.Endpoint(method: method, handler: handler, placement: placement)
        )
        registeredRoutes.append((method, pattern))
    }

    public mutating func get(_ pattern: String, on placement: Placement = .pool, _ handler: @escaping Handler) {
        add(.get, pattern, on: placement, handler)
    }
    public mutating func post(_ pattern: String, _ handler: @escaping Handler) { add(.post, pattern, handler) }
    public mutating func put(_ pattern: String, _ handler: @escaping Handler) { add(.put, pattern, handler) }
    public mutating func patch(_ pattern: String, _ handler: @escaping Handler) { add(.patch, pattern, handler) }
    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) { add(.delete, pattern, handler) }

    /// Answers the misses of paths under `prefix` (a path such as `/__/auth`) with `handler`
    /// instead of the Google error envelope: people's browsers open those paths, and they
    /// get a page. A CORS preflight is still answered as for every path.
    public mutating func answerMisses(under prefix: String, with handler: @escaping MissHandler) {
        missHandlers.append((RequestPath.segments(of: prefix), handler))
        missHandlers.sort { $0.prefix.count > $1.prefix.count }
    }

    public func respond(to request: Request) -> Response {
        var response = route(request)
        if let cors, request.headers["origin"] != nil {
            let origin = cors.allowOrigin
            response.modify { response in
                if !response.headers.contains("Access-Control-Allow-Origin") {
                    response.headers.add("Access-Control-Allow-Origin", origin)
                }
            }
        }
        return response
    }

    private func route(_ request: Request) -> Response {
        guard request.path.utf8.first == UInt8(ascii: "/") else {
            return GoogleAPIError.invalidArgument("The request target must be an absolute path.").response()
        }
        let segments = stripAlias(RequestPath.segments(of: request.path))

        if let (endpoint, parameters) = findEndpoint(segments, request.method) {
            return invoke(endpoint, request, parameters)
        }
        if request.method == .head, let (endpoint, parameters) = findEndpoint(segments, .get) {
            return invoke(endpoint, request, parameters)
        }

        let methods = allowedMethods(segments)
        let missHandler = missHandlers.first { segments.starts(with: $0.prefix) }?.handler
        guard !methods.isEmpty else {
            if let missHandler { return missHandler(request, .notFound) }
            return GoogleAPIError(
                code: .notFound,
                message: "No route for \(request.method) \(request.path)",
                status: .notFound
            )
            .response()
        }
        let allow = methods.joined(separator: ", ")
        if request.method == .options, let cors {
            return cors.preflightResponse(to: request, allowing: allow)
        }
        var response =
            missHandler?(request, .methodNotAllowed(allow: allow))
            ?? GoogleAPIError(
                code: .methodNotAllowed,
                message: "Method \(request.method) is not allowed for \(request.path); allowed: \(allow)",
                status: .unimplemented
            ).response()
        response.headers.set("Allow", allow)
        return response
    }

    private func stripAlias(_ segments: [Substring]) -> ArraySlice<Substring> {
        guard let length = segments.first?.utf8.count else { return segments[...] }
        for (index, alias) in aliases.enumerated()
        where aliasFirstLengths[index] == length && segments.starts(with: alias) {
            return segments[alias.count...]
        }
        return segments[...]
    }

    private func findEndpoint(_ segments: ArraySlice<Substring>, _ method: HTTPMethod) -> (
        RouteNode.Endpoint, [PathParameters.Parameter]
    )? {
        var found: (RouteNode.Endpoint, [PathParameters.Parameter])?
        var scratch: [PathParameters.Parameter] = []
        root.visitMatches(segments, &scratch) { node, parameters in
            guard let endpoint = node.endpoint(for: method) else { return false }
            found = (endpoint, parameters)
            return true
        }
        return found
    }

    /// The methods some route accepts at this path, in a stable order, with `HEAD` for `GET`
    /// and `OPTIONS` when CORS is on.
    private func allowedMethods(_ segments: ArraySlice<Substring>) -> [String] {
        var methods: [HTTPMethod] = []
        var scratch: [PathParameters.Parameter] = []
        root.visitMatches(segments, &scratch) { node, _ in
            for endpoint in node.endpoints where !methods.contains(endpoint.method) { methods.append(endpoint.method) }
            return false
        }
        guard !methods.isEmpty else { return [] }
        if methods.contains(.get) && !methods.contains(.head) { methods.append(.head) }
        if cors != nil && !methods.contains(.options) { methods.append(.options) }
        let order: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]
        return methods.sorted { (order.firstIndex(of: $0) ?? order.count) < (order.firstIndex(of: $1) ?? order.count) }
            .map(\.rawValue)
    }

    private func invoke(
        _ endpoint: RouteNode.Endpoint,
        _ request: Request,
        _ parameters: [PathParameters.Parameter]
    ) -> Response {
        var request = request
        request.pathParameters = PathParameters(parameters)
        guard endpoint.placement == .pool, let handlerPool, !handlerPool.mayRunInPlace else {
            return call(endpoint.handler, request)
        }
        return .deferred { [self, request] promise in
            handlerPool.run { call(endpoint.handler, request).deliver(to: promise) }
        }
    }

    /// Runs `handler`, turning what it throws into a response.
    private func call(_ handler: Handler, _ request: Request) -> Response {
        do {
            return try handler(request)
        } catch let error as any HTTPResponseError where error.response().status != .internalServerError {
            return error.response()
        } catch {
            log.error(
                "handler failed",
                [
                    "method": .string(request.method.rawValue), "path": .string(request.path),
                    "error": .string(String(reflecting: error)),
                ]
            )
            return (error as? any HTTPResponseError)?.response() ?? GoogleAPIError.internal().response()
        }
    }
}
