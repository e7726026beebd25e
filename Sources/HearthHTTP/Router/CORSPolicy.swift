/// Cross-origin rules for browser clients. Firebase's web SDK calls Identity Toolkit and
/// Installations from any origin, with API keys in headers and no cookies, so the default
/// answers every origin with `*`: without credentials a wildcard grants nothing that echoing
/// the origin would not, and it keeps responses cacheable without `Vary: Origin`.
public struct CORSPolicy: Sendable {
    /// The `Access-Control-Allow-Origin` value.
    public var allowOrigin: String
    /// Request headers a browser may send, always allowed in a preflight answer; headers the
    /// preflight asks for beyond these are allowed too (the policy is permissive).
    public var allowHeaders: [String]
    /// How long a browser may cache a preflight answer.
    public var maxAgeSeconds: Int

    public init(
        allowOrigin: String = "*",
        allowHeaders: [String] = CORSPolicy.firebaseHeaders,
        maxAgeSeconds: Int = 3600
    ) {
        self.allowOrigin = allowOrigin
        self.allowHeaders = allowHeaders
        self.maxAgeSeconds = maxAgeSeconds
    }

    /// The headers Firebase client SDKs send.
    public static let firebaseHeaders = [
        "authorization", "content-type", "content-encoding", "x-goog-api-key", "x-firebase-locale",
        "x-client-version", "x-firebase-gmpid", "x-firebase-client", "x-firebase-appcheck",
        "x-firebase-client-log-type", "x-ios-bundle-identifier", "x-android-package", "x-android-cert",
    ]

    public static let permissive = CORSPolicy()

    /// The 204 answer to a preflight for a path that allows `methods`.
    func preflightResponse(to request: Request, allowing methods: String) -> Response {
        var allowedHeaders = allowHeaders.joined(separator: ", ")
        if let requested = request.headers["access-control-request-headers"], !requested.isEmpty {
            allowedHeaders += ", " + requested
        }
        return Response(
            status: .noContent,
            headers: [
                "Access-Control-Allow-Origin": allowOrigin,
                "Access-Control-Allow-Methods": methods,
                "Access-Control-Allow-Headers": allowedHeaders,
                "Access-Control-Max-Age": String(maxAgeSeconds),
            ]
        )
    }
}
