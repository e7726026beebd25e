public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An HTTP request as the SDKs send it.
public struct HTTPRequest: Sendable {
    /// The method: `GET`, `POST`, `DELETE`, …
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// The header fields, by name.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?

    /// Makes a request from its parts.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// An HTTP response: status, headers (names lower-cased) and body.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields, names lower-cased.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Makes a response from its parts; header names are lower-cased.
    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }
}

/// Sends requests to Hearth. Throws only when no HTTP answer arrived (connection refused,
/// timeout); every status, 4xx and 5xx included, is a response. Tests substitute their own.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the server's answer.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// The transport of the platform: an ephemeral `URLSession` (nothing cached, no cookies).
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// A transport on its own ephemeral session, each request timing out after 30 s.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        session = URLSession(configuration: configuration)
    }

    /// Sends `request` through the session.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let session = session
        let (data, response): (Data, URLResponse) = try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: urlRequest) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let response {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                }
            }.resume()
        }
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }
}
