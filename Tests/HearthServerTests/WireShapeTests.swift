import Foundation
import HearthBase
import HearthCore
import HearthHTTP
import HearthWire
import Testing

/// The server's answers decode into HearthWire's `Codable` types, the ones the SDKs use, and
/// the requests the SDKs encode are understood by the server.
@Suite("Server answers in HearthWire's shapes")
struct WireShapeTests {
    private func decode<T: Decodable>(_ type: T.Type, _ answer: TestAnswer) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(answer.response.body))
    }

    private func body(_ value: some Encodable) throws -> [UInt8] { Array(try JSONEncoder().encode(value)) }

    @Test("an installation is created, refreshed and deleted in HearthWire's shapes")
    func installations() throws {
        let app = try TestApplication()
        let fid = InstallationID.generate()
        let project = TestApplication.projectID
        let created = app.send(
            .post,
            InstallationsPath.create(project: project),
            rawBody: try body(
                CreateInstallationRequest(fid: fid, appID: DevelopmentSeed.webAppID, sdkVersion: "w:0.6.4")
            ),
            headers: [("Content-Type", "application/json"), ("x-goog-api-key", TestApplication.apiKey)]
        )
        #expect(created.status == 200, "\(created.text)")
        let registration = try decode(CreateInstallationResponse.self, created)
        #expect(registration.fid == fid)
        #expect(registration.name.hasSuffix("/installations/\(fid)"))
        #expect(registration.authToken.expiresInSeconds == 604800)

        let authorization = FISAuthorization.header(refreshToken: registration.refreshToken)
        let generated = app.send(
            .post,
            InstallationsPath.generateAuthToken(project: project, fid: fid),
            rawBody: try body(
                GenerateAuthTokenRequest(installation: .init(sdkVersion: "w:0.6.4", appID: DevelopmentSeed.webAppID))
            ),
            headers: [
                ("Content-Type", "application/json"), ("x-goog-api-key", TestApplication.apiKey),
                ("Authorization", authorization),
            ]
        )
        #expect(generated.status == 200, "\(generated.text)")
        #expect(try decode(GenerateAuthTokenResponse.self, generated).token.split(separator: ".").count == 3)

        let deleted = app.send(
            .delete,
            InstallationsPath.installation(project: project, fid: fid),
            headers: [("x-goog-api-key", TestApplication.apiKey), ("Authorization", authorization)]
        )
        #expect(deleted.status == 200)
        _ = try decode(DeleteInstallationResponse.self, deleted)

        let gone = app.send(
            .post,
            InstallationsPath.generateAuthToken(project: project, fid: fid),
            json: [:],
            headers: [("x-goog-api-key", TestApplication.apiKey), ("Authorization", authorization)]
        )
        #expect(gone.status == 404)
        #expect(try decode(GoogleErrorEnvelope.self, gone).error.status == WireErrorStatus.notFound.rawValue)
    }

    @Test("a server-replaced FID is answered in the response's fid")
    func replacedFID() throws {
        let app = try TestApplication()
        let created = app.send(
            .post,
            InstallationsPath.create(project: TestApplication.projectID),
            rawBody: try body(
                CreateInstallationRequest(fid: "not-a-fid", appID: DevelopmentSeed.webAppID, sdkVersion: "w")
            ),
            headers: [("Content-Type", "application/json"), ("x-goog-api-key", TestApplication.apiKey)]
        )
        let registration = try decode(CreateInstallationResponse.self, created)
        #expect(registration.fid != "not-a-fid")
        #expect(InstallationID.isWellFormed(registration.fid))
    }

    @Test("sign-up, lookup, link generation and code inspection decode into HearthWire's types")
    func identityToolkit() throws {
        let app = try TestApplication()
        let signUp = app.send(
            .post,
            IdentityToolkitPath.signUp + "?key=\(TestApplication.apiKey)",
            rawBody: try body(SignUpRequest(email: "wire@example.com", password: "correct horse battery")),
            headers: [("Content-Type", "application/json")]
        )
        let session = try decode(SignInResponse.self, signUp)
        #expect(session.email == "wire@example.com")
        let idToken = try #require(session.idToken)

        let lookup = app.send(
            .post,
            IdentityToolkitPath.lookup + "?key=\(TestApplication.apiKey)",
            rawBody: try body(LookupRequest(idToken: idToken)),
            headers: [("Content-Type", "application/json")]
        )
        #expect(try decode(LookupResponse.self, lookup).users?.first?.localID == session.localID)

        let settings = ActionCodeSettings()
        settings.url = URL(string: "https://localhost/after")
        let send = app.send(
            .post,
            IdentityToolkitPath.admin(project: TestApplication.projectID, "accounts:sendOobCode"),
            rawBody: try body(
                SendOobCodeRequest(
                    operation: .verifyEmail,
                    email: "wire@example.com",
                    returnOobLink: true,
                    settings: settings.wireFields
                )
            ),
            headers: [("Content-Type", "application/json"), ("Authorization", TestApplication.adminAuthorization)]
        )
        #expect(send.status == 200, "\(send.text)")
        let link = try #require(try decode(SendOobCodeResponse.self, send).oobLink)
        let action = try #require(ActionCodeURL(link: link))
        #expect(action.operation == .verifyEmail)

        let inspect = app.send(
            .post,
            IdentityToolkitPath.resetPassword + "?key=\(TestApplication.apiKey)",
            rawBody: try body(ResetPasswordRequest(oobCode: action.code)),
            headers: [("Content-Type", "application/json")]
        )
        #expect(try decode(ResetPasswordResponse.self, inspect).operation == .verifyEmail)

        let refresh = app.send(
            .post,
            IdentityToolkitPath.token + "?key=\(TestApplication.apiKey)",
            rawBody: Array(RefreshTokenRequest(refreshToken: try #require(session.refreshToken)).formBody.utf8),
            headers: [("Content-Type", "application/x-www-form-urlencoded")]
        )
        #expect(try decode(RefreshTokenResponse.self, refresh).userID == session.localID)

        let weak = app.send(
            .post,
            IdentityToolkitPath.signUp + "?key=\(TestApplication.apiKey)",
            rawBody: try body(SignUpRequest(email: "weak@example.com", password: "x")),
            headers: [("Content-Type", "application/json")]
        )
        #expect(try decode(GoogleErrorEnvelope.self, weak).error.wireCode == .weakPassword)
    }
}
