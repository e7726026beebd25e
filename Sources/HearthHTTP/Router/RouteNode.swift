/// One level of the routing trie: the handlers for the path that ends here and the edges to the
/// next segment. Literal edges are tried first, then parameters with a verb, then plain
/// parameters; matching backtracks, so the most specific route wins.
struct RouteNode: Sendable {
    struct Endpoint: Sendable {
        let method: HTTPMethod
        let handler: Router.Handler
        let placement: Router.Placement
    }

    var endpoints: [Endpoint] = []
    var literalEdges: [(segment: String, node: RouteNode)] = []
    /// Parameter edges; `verb == nil` takes a whole segment.
    var parameterEdges: [(name: String, verb: String?, node: RouteNode)] = []

    mutating func insert(_ segments: ArraySlice<RoutePattern.Segment>, _ endpoint: Endpoint) {
        guard let first = segments.first else {
            precondition(
                !endpoints.contains { $0.method == endpoint.method },
                "a route for \(endpoint.method) at this path is already registered"
            )
            endpoints.append(endpoint)
            return
        }
        let rest = segments.dropFirst()
        switch first {
        case .literal(let literal):
            if let index = literalEdges.firstIndex(where: { $0.segment == literal }) {
                literalEdges[index].node.insert(rest, endpoint)
            } else {
                var node = RouteNode()
                node.insert(rest, endpoint)
                literalEdges.append((literal, node))
            }
        case .parameter(let name):
            insertParameter(name: name, verb: nil, rest, endpoint)
        case .parameterWithVerb(let name, let verb):
            insertParameter(name: name, verb: verb, rest, endpoint)
        }
    }

    private mutating func insertParameter(
        name: String,
        verb: String?,
        _ rest: ArraySlice<RoutePattern.Segment>,
        _ endpoint: Endpoint
    ) {
        if let index = parameterEdges.firstIndex(where: { $0.name == name && $0.verb == verb }) {
            parameterEdges[index].node.insert(rest, endpoint)
            return
        }
        var node = RouteNode()
        node.insert(rest, endpoint)
        // Verb edges before plain ones: `{id}:verify` is more specific than `{id}`.
        if verb != nil, let firstPlain = parameterEdges.firstIndex(where: { $0.verb == nil }) {
            parameterEdges.insert((name, verb, node), at: firstPlain)
        } else {
            parameterEdges.append((name, verb, node))
        }
    }

    /// Visits, most specific first, every node whose path matches `segments`, with the
    /// parameters bound on the way; stops when `visit` returns `true`.
    @discardableResult
    func visitMatches(
        _ segments: ArraySlice<Substring>,
        _ parameters: inout [PathParameters.Parameter],
        _ visit: (RouteNode, [PathParameters.Parameter]) -> Bool
    ) -> Bool {
        guard let segment = segments.first else {
            return endpoints.isEmpty ? false : visit(self, parameters)
        }
        let rest = segments.dropFirst()
        for edge in literalEdges where edge.segment == segment {
            if edge.node.visitMatches(rest, &parameters, visit) { return true }
        }
        guard !segment.isEmpty else { return false }
        for edge in parameterEdges {
            let value: Substring
            if let verb = edge.verb {
                guard let colon = segment.lastIndex(of: ":"), segment[segment.index(after: colon)...] == verb,
                    colon != segment.startIndex
                else { continue }
                value = segment[..<colon]
            } else {
                value = segment
            }
            parameters.append((edge.name, String(value)))
            if edge.node.visitMatches(rest, &parameters, visit) { return true }
            parameters.removeLast()
        }
        return false
    }

    func endpoint(for method: HTTPMethod) -> Endpoint? {
        endpoints.first { $0.method == method }
    }
}
