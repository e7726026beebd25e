public import HearthBase

/// One HTTP request, fully read: what a handler receives.
public struct Request: Sendable {
    public var method: HTTPMethod
    /// The path as sent, without the query string and still percent-encoded (the router decodes
    /// each segment; logs show it as received).
    public var path: String
    public var query: QueryItems
    /// Header fields with lower-cased names.
    public var headers: HTTPHeaders
    /// The body, already inflated when it was sent with `Content-Encoding: gzip`.
    public var body: [UInt8]
    /// The client's IP address (`127.0.0.1`, `::1`); IPv4-mapped IPv6 addresses are shown as IPv4.
    public var remoteAddress: String
    /// The values of the route's `{parameters}`, filled in by the ``Router``.
    public var pathParameters: PathParameters

    public init(
        method: HTTPMethod,
        path: String,
        query: QueryItems = QueryItems(),
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        remoteAddress: String = ""
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.pathParameters = PathParameters()
    }

    /// A request for a target such as `/v1/accounts:lookup?key=abc` — handy in tests.
    public init(
        method: HTTPMethod,
        target: String,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1"
    ) {
        let path: Substring
        let query: QueryItems
        if let mark = target.firstIndex(of: "?") {
            path = target[..<mark]
            query = QueryItems(formEncoded: target[target.index(after: mark)...])
        } else {
            path = Substring(target)
            query = QueryItems()
        }
        var lowered = HTTPHeaders(reservingCapacity: headers.count)
        for field in headers { lowered.add(field.name.lowercased(), field.value) }
        self.init(
            method: method,
            path: String(path),
            query: query,
            headers: lowered,
            body: body,
            remoteAddress: remoteAddress
        )
    }

    /// The path split at `/` with each segment percent-decoded; a trailing slash adds no segment.
    public var pathSegments: [String] {
        RequestPath.segments(of: path).map { String($0) }
    }

    /// The body decoded as `application/x-www-form-urlencoded`.
    public var formItems: QueryItems {
        QueryItems(formEncoded: body)
    }
}

/// The values bound to a route's `{parameters}`, decoded.
public struct PathParameters: Sendable, Equatable {
    public typealias Parameter = (name: String, value: String)

    public private(set) var parameters: [Parameter] = []

    public init() {}

    public init(_ parameters: [Parameter]) { self.parameters = parameters }

    public subscript(name: String) -> String? {
        for parameter in parameters where parameter.name == name { return parameter.value }
        return nil
    }

    public var isEmpty: Bool { parameters.isEmpty }

    public static func == (lhs: PathParameters, rhs: PathParameters) -> Bool {
        lhs.parameters.count == rhs.parameters.count && zip(lhs.parameters, rhs.parameters).allSatisfy { $0 == $1 }
    }
}

/// Splitting request paths into decoded segments.
enum RequestPath {
    /// The segments of `path` (which must start with `/`), percent-decoded one by one so that an
    /// encoded `%2F` stays inside its segment. One trailing slash is ignored; other empty
    /// segments are kept, so `//x` matches no route.
    static func segments(of path: String) -> [Substring] {
        let utf8 = path.utf8
        func slice(_ start: Int, _ end: Int) -> Substring {
            path[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)]
        }
        // Scan raw bytes (fast); slicing at UTF-8 offsets is O(1) on native strings.
        let scanned = utf8.withContiguousStorageIfAvailable { bytes -> [Substring] in
            var segments: [Substring] = []
            var slashes = 0
            for byte in bytes where byte == UInt8(ascii: "/") { slashes += 1 }
            segments.reserveCapacity(slashes)
            var start = bytes.first == UInt8(ascii: "/") ? 1 : 0
            var encoded = false
            for index in start..<bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "/"):
                    segments.append(segment(slice(start, index), decoding: encoded))
                    start = index + 1
                    encoded = false
                case UInt8(ascii: "%"):
                    encoded = true
                default:
                    break
                }
            }
            if start < bytes.count { segments.append(segment(slice(start, bytes.count), decoding: encoded)) }
            return segments
        }
        return scanned ?? segments(of: String(decoding: Array(utf8), as: UTF8.self))
    }

    private static func segment(_ raw: Substring, decoding: Bool) -> Substring {
        decoding ? Substring(PercentDecoding.decode(raw, plusAsSpace: false)) : raw
    }
}
