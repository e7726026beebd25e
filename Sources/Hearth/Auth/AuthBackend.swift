import Foundation
import HearthTransport
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends Identity Toolkit and Secure Token calls for one app and turns every failure into an
/// ``AuthErrorCode``.
struct AuthBackend: Sendable {
    let baseURL: URL
    let apiKey: String
    let appID: String
    let transport: any HTTPTransport
    /// Read at each call: `Auth.languageCode`, sent as `X-Firebase-Locale`.
    let languageCode: @Sendable () -> String?

    /// POSTs `body` as JSON to `/v1/<method>?key=…` and decodes the answer.
    func call<Body: Encodable, Answer: Decodable>(
        _ method: String,
        _ body: Body,
        as answer: Answer.Type = Answer.self
    ) async throws(AuthErrorCode) -> Answer {
        let data: Data
        do {
            data = try JSONEncoder().encode(body)
        } catch {
            throw AuthErrorCode(.internalError, "Could not encode the \(method) request: \(error)")
        }
        let response = try await send(path: "v1/\(method)", contentType: "application/json", body: data)
        return try decode(Answer.self, from: response, method: method)
    }

    /// Exchanges a refresh token for a new ID token at `/v1/token`.
    func refresh(_ refreshToken: String) async throws(AuthErrorCode) -> RefreshTokenResponse {
        let body = Data(RefreshTokenRequest(refreshToken: refreshToken).formBody.utf8)
        let response = try await send(path: "v1/token", contentType: "application/x-www-form-urlencoded", body: body)
        return try decode(RefreshTokenResponse.self, from: response, method: "token")
    }

    private func send(path: String, contentType: String, body: Data) async throws(AuthErrorCode) -> HTTPResponse {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "key", value: apiKey)]
        guard let url = components?.url else {
            throw AuthErrorCode(.internalError, "The base URL \(baseURL) cannot address \(path).")
        }
        var headers = ["Content-Type": contentType, "X-Firebase-GMPID": appID, "X-Client-Version": "Hearth-Swift/1"]
        if let language = languageCode(), !language.isEmpty { headers["X-Firebase-Locale"] = language }
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(method: "POST", url: url, headers: headers, body: body))
        } catch {
            throw AuthErrorCode(.networkError, "Hearth could not be reached: \(error)")
        }
        guard (200..<300).contains(response.status) else { throw Self.error(from: response) }
        return response
    }

    private func decode<Answer: Decodable>(
        _ type: Answer.Type,
        from response: HTTPResponse,
        method: String
    ) throws(AuthErrorCode) -> Answer {
        do {
            return try JSONDecoder().decode(Answer.self, from: response.body)
        } catch {
            throw AuthErrorCode(.internalError, "Hearth's answer to \(method) could not be read: \(error)")
        }
    }

    /// The error an unsuccessful answer stands for: its envelope's message, or its status.
    static func error(from response: HTTPResponse) -> AuthErrorCode {
        if let envelope = try? JSONDecoder().decode(GoogleErrorEnvelope.self, from: response.body) {
            return AuthErrorCode(serverMessage: envelope.error.message, status: response.status)
        }
        let code: AuthErrorCode.Code = response.status == 429 ? .tooManyRequests : .internalError
        return AuthErrorCode(code, "Hearth answered \(response.status) without an error message.")
    }
}
