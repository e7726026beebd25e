import Foundation
import HearthBase
import HearthCore
import HearthCrypto
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

    @Test("admin paging and installation deletion decode into HearthWire's types")
    func admin() throws {
        let app = try TestApplication()
        for index in 0..<3 { _ = try app.signUp("page\(index)@example.com") }
        var seen: [String] = []
        var pageToken: String?
        repeat {
            let query = "maxResults=2" + (pageToken.map { "&nextPageToken=\($0)" } ?? "")
            let page = app.admin(
                .get,
                IdentityToolkitPath.admin(project: TestApplication.projectID, "accounts:batchGet") + "?\(query)"
            )
            #expect(page.status == 200, "\(page.text)")
            let decoded = try decode(BatchGetAccountsResponse.self, page)
            seen += (decoded.users ?? []).compactMap(\.email)
            pageToken = decoded.nextPageToken
        } while pageToken != nil && seen.count < 10
        #expect(Set(seen) == ["page0@example.com", "page1@example.com", "page2@example.com"])

        let fid = try app.registerInstallation().fid
        let deleted = app.admin(.delete, InstallationsPath.adminDelete(project: TestApplication.projectID, fid: fid))
        #expect(deleted.status == 200, "\(deleted.text)")
        _ = try decode(DeleteInstallationResponse.self, deleted)
    }

    @Test(
        "the admin SDK's other calls decode into HearthWire's types: the project JWKS, the online token check, the project config, the development outbox"
    )
    func adminSDKShapes() throws {
        let app = try TestApplication()
        let project = TestApplication.projectID
        let created = app.send(
            .post,
            InstallationsPath.create(project: project),
            rawBody: try body(
                CreateInstallationRequest(
                    fid: InstallationID.generate(),
                    appID: DevelopmentSeed.webAppID,
                    sdkVersion: "w:0.6.4"
                )
            ),
            headers: [("Content-Type", "application/json"), ("x-goog-api-key", TestApplication.apiKey)]
        )
        let registration = try decode(CreateInstallationResponse.self, created)
        let checked = app.send(
            .post,
            AdminPath.verifyInstallationToken(project: project),
            rawBody: try body(VerifyInstallationTokenRequest(token: registration.authToken.token)),
            headers: [("Content-Type", "application/json"), ("Authorization", TestApplication.adminAuthorization)]
        )
        #expect(checked.status == 200, "\(checked.text)")
        let verified = try decode(VerifyInstallationTokenResponse.self, checked)
        #expect(verified.fid == registration.fid && verified.appID == DevelopmentSeed.webAppID)
        #expect(verified.projectNumber == DevelopmentSeed.projectNumber && verified.iat != nil)

        _ = try app.signUp("outbox@example.com")
        // Keys are made when first used: both kinds exist now.
        let keys = app.send(.get, AdminPath.projectJWKS(project: project))
        #expect(keys.status == 200, "\(keys.text)")
        let set = try decode(JWKSet.self, keys)
        #expect(Set(set.keys.compactMap(\.alg)) == ["ES256", "RS256"])

        #expect(set.key(id: try #require(Self.keyID(of: registration.authToken.token)))?.alg == "ES256")

        let config = app.admin(.get, AdminPath.projectConfig + "?targetProjectId=\(project)")
        #expect(try decode(ProjectConfigResponse.self, config).projectID == DevelopmentSeed.projectNumber)

        let send = app.admin(
            .post,
            IdentityToolkitPath.admin(project: project, "accounts:sendOobCode"),
            .object(["requestType": "PASSWORD_RESET", "email": "outbox@example.com"])
        )
        #expect(send.status == 200, "\(send.text)")
        let listing = try decode(
            DevelopmentOobCodesResponse.self,
            app.send(.get, AdminPath.developmentOobCodes(project: project))
        )
        let entry = try #require(listing.oobCodes.last { $0.email == "outbox@example.com" })
        #expect(entry.operation == .passwordReset && entry.oobCode != nil)
        #expect(ActionCodeURL(link: try #require(entry.oobLink))?.code == entry.oobCode)
    }

    /// The `kid` of a compact token's header.
    private static func keyID(of token: String) -> String? {
        guard let part = token.split(separator: ".").first,
            let header = Base64URL.decode(part),
            let object = try? JSONSerialization.jsonObject(with: Data(header)) as? [String: Any]
        else { return nil }
        return object["kid"] as? String
    }

    @Test("HearthWire's error codes are exactly the codes the server's AuthError declares")
    func errorCodes() throws {
        let source = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/HearthCore/Accounts/AuthError.swift")
        let text = try String(contentsOf: source, encoding: .utf8)
        let declared = Set(
            text.matches(of: /static let \w+ = Code\(rawValue: "([A-Z_]+)"\)/).map { String($0.output.1) }
        )
        #expect(declared.count > 40)
        #expect(declared == Set(WireErrorCode.allCases.map(\.rawValue)))
    }
}
