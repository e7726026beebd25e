import Foundation
import HearthTransport

/// Why an Installations call failed: no answer, an HTTP error, or an answer that could not be
/// read.
enum InstallationsAPIError: Error {
    case transport(any Error)
    case http(status: Int, message: String)
    case malformedAnswer(String)

    /// Hearth no longer knows the installation or its refresh token (404, 401): the client
    /// must start again with a new FID.
    var meansInstallationGone: Bool {
        if case .http(let status, _) = self { return status == 401 || status == 404 }
        return false
    }
}

/// The Installations v1 calls of one app, in HearthWire's shapes.
struct InstallationsAPIService: Sendable {
    /// The SDK's version as Hearth records it for an installation.
    static let sdkVersion = "hearth-swift:1"

    let baseURL: URL
    let projectID: String
    let apiKey: String
    let appID: String
    let transport: any HTTPTransport

    struct Registration: Sendable {
        var fid: String
        var refreshToken: String
        var authToken: String
        var expiresIn: TimeInterval
    }

    struct Token: Sendable {
        var token: String
        var expiresIn: TimeInterval
    }

    /// `POST /v1/projects/{project}/installations`: registers `fid`; Hearth may answer with
    /// another FID (when it refuses the one sent), which the client adopts.
    func createInstallation(fid: String) async throws(InstallationsAPIError) -> Registration {
        let body = CreateInstallationRequest(fid: fid, appID: appID, sdkVersion: Self.sdkVersion)
        let answer: CreateInstallationResponse = try await send(
            "POST",
            "v1/projects/\(projectID)/installations",
            body: body,
            refreshToken: nil
        )
        return Registration(
            fid: answer.fid,
            refreshToken: answer.refreshToken,
            authToken: answer.authToken.token,
            expiresIn: try seconds(answer.authToken.expiresIn)
        )
    }

    /// `POST …/installations/{fid}/authTokens:generate`: a new token for the installation.
    func generateAuthToken(fid: String, refreshToken: String) async throws(InstallationsAPIError) -> Token {
        let body = GenerateAuthTokenRequest(installation: .init(sdkVersion: Self.sdkVersion, appID: appID))
        let answer: InstallationAuthToken = try await send(
            "POST",
            "v1/projects/\(projectID)/installations/\(fid)/authTokens:generate",
            body: body,
            refreshToken: refreshToken
        )
        return Token(token: answer.token, expiresIn: try seconds(answer.expiresIn))
    }

    /// `DELETE …/installations/{fid}`.
    func deleteInstallation(fid: String, refreshToken: String) async throws(InstallationsAPIError) {
        let _: DeleteInstallationResponse = try await send(
            "DELETE",
            "v1/projects/\(projectID)/installations/\(fid)",
            body: DeleteInstallationResponse(),
            refreshToken: refreshToken
        )
    }

    private func seconds(_ duration: String) throws(InstallationsAPIError) -> TimeInterval {
        guard let seconds = WireDuration.seconds(duration) else {
            throw .malformedAnswer("expiresIn \(duration) is not a duration")
        }
        return seconds
    }

    private func send<Body: Encodable, Answer: Decodable>(
        _ method: String,
        _ path: String,
        body: Body,
        refreshToken: String?
    ) async throws(InstallationsAPIError) -> Answer {
        var headers = ["Content-Type": "application/json", "x-goog-api-key": apiKey, "Accept": "application/json"]
        if let refreshToken { headers["Authorization"] = FISAuthorization.header(refreshToken: refreshToken) }
        let data: Data
        do {
            data = try JSONEncoder().encode(body)
        } catch {
            throw .malformedAnswer("the request could not be encoded: \(error)")
        }
        let response: HTTPResponse
        do {
            response = try await transport.send(
                HTTPRequest(method: method, url: baseURL.appendingPathComponent(path), headers: headers, body: data)
            )
        } catch {
            throw .transport(error)
        }
        guard (200..<300).contains(response.status) else {
            let message = (try? JSONDecoder().decode(GoogleErrorEnvelope.self, from: response.body))?.error.message
            throw .http(status: response.status, message: message ?? "no error message")
        }
        do {
            return try JSONDecoder().decode(Answer.self, from: response.body)
        } catch {
            throw .malformedAnswer("\(error)")
        }
    }
}
