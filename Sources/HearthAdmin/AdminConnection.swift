import Foundation
import HearthTransport
import HearthWire

/// The requests of one admin app: Hearth's address, the credential, the transport and the
/// clock, with JSON in and out and every refusal turned into an ``AdminError``.
final class AdminConnection: Sendable {
    let projectID: String
    let credential: AdminCredential
    let baseURL: URL
    let transport: any HTTPTransport
    let now: @Sendable () -> Date

    init(
        projectID: String,
        credential: AdminCredential,
        baseURL: URL,
        transport: any HTTPTransport,
        now: @escaping @Sendable () -> Date
    ) {
        self.projectID = projectID
        self.credential = credential
        self.baseURL = baseURL
        self.transport = transport
        self.now = now
    }

    /// The project-scoped Identity Toolkit path of `method` (`accounts:lookup`, …).
    func identityToolkit(_ method: String) -> String {
        IdentityToolkitPath.admin(project: projectID, method)
    }

    /// The URL of `path` under the base URL, with `query` items.
    func url(_ path: String, query: [URLQueryItem] = []) throws -> URL {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        guard var components = URLComponents(string: text + path) else {
            throw AdminError(status: nil, code: AdminError.unexpectedResponse, message: "bad URL for \(path)")
        }
        if !query.isEmpty { components.queryItems = query }
        guard let url = components.url else {
            throw AdminError(status: nil, code: AdminError.unexpectedResponse, message: "bad URL for \(path)")
        }
        return url
    }

    /// Sends a request and returns the 2xx answer; throws ``AdminError`` for anything else.
    func send(
        _ method: String,
        _ path: String,
        query: [URLQueryItem] = [],
        body: Data? = nil,
        authenticated: Bool = true
    ) async throws -> HTTPResponse {
        var headers = ["Accept": "application/json"]
        if authenticated { headers["Authorization"] = credential.authorization }
        if body != nil { headers["Content-Type"] = "application/json" }
        let request = HTTPRequest(method: method, url: try url(path, query: query), headers: headers, body: body)
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw AdminError(status: nil, code: AdminError.networkError, message: "\(error)")
        }
        guard (200..<300).contains(response.status) else { throw AdminError(response: response) }
        return response
    }

    /// Sends `body` as JSON and decodes the answer as `Response`.
    func call<Response: Decodable>(
        _ method: String,
        _ path: String,
        query: [URLQueryItem] = [],
        body: (some Encodable)?,
        as type: Response.Type = Response.self
    ) async throws -> Response {
        let data: Data?
        do {
            data = try body.map { try JSONEncoder().encode($0) }
        } catch {
            throw AdminError(
                status: nil,
                code: "INVALID_ARGUMENT",
                message: "the request could not be encoded: \(error)"
            )
        }
        let response = try await send(method, path, query: query, body: data)
        return try decode(Response.self, from: response)
    }

    /// A call without a body.
    func call<Response: Decodable>(
        _ method: String,
        _ path: String,
        query: [URLQueryItem] = [],
        as type: Response.Type = Response.self
    ) async throws -> Response {
        let response = try await send(method, path, query: query)
        return try decode(Response.self, from: response)
    }

    func decode<Response: Decodable>(_ type: Response.Type, from response: HTTPResponse) throws -> Response {
        do {
            return try JSONDecoder().decode(Response.self, from: response.body)
        } catch {
            throw AdminError(
                status: response.status,
                code: AdminError.unexpectedResponse,
                message: "the answer is not a \(Response.self): \(error)"
            )
        }
    }
}
