import Foundation
import HearthWire
import Testing

@Suite("HearthWire Codable types")
struct WireCodableTests {
    private func roundTrip<T: Codable & Equatable>(_ type: T.Type, _ json: String) throws -> T {
        let decoded = try JSONDecoder().decode(T.self, from: Data(json.utf8))
        let again = try JSONDecoder().decode(T.self, from: JSONEncoder().encode(decoded))
        #expect(again == decoded)
        return decoded
    }

    @Test("a create-installation request and its answer round-trip with the protocol's field names")
    func installation() throws {
        let request = try roundTrip(
            CreateInstallationRequest.self,
            #"{"fid":"dIsVQ2QVRT-TL_rGe-tYnu","appId":"1:123:ios:abc","authVersion":"FIS_v2","sdkVersion":"i:11.0.0"}"#
        )
        #expect(request.appID == "1:123:ios:abc")
        #expect(InstallationID.isWellFormed(request.fid))
        let response = try roundTrip(
            CreateInstallationResponse.self,
            #"{"name":"projects/123/installations/dIsVQ2QVRT-TL_rGe-tYnu","fid":"dIsVQ2QVRT-TL_rGe-tYnu","refreshToken":"2_x","authToken":{"token":"a.b.c","expiresIn":"604800s"}}"#
        )
        #expect(response.authToken.expiresInSeconds == 604800)
    }

    @Test("an FID is made from 17 random bytes with the header nibble 0111")
    func fid() {
        #expect(InstallationID.make(fromRandom: [UInt8](repeating: 0xFF, count: 17)).first == "f")
        #expect(InstallationID.make(fromRandom: [UInt8](repeating: 0, count: 17)) == "cAAAAAAAAAAAAAAAAAAAAA")
        for _ in 0..<50 { #expect(InstallationID.isWellFormed(InstallationID.generate())) }
        #expect(!InstallationID.isWellFormed("aAAAAAAAAAAAAAAAAAAAAA"))
        #expect(!InstallationID.isWellFormed("cAAAAAAAAAAAAAAAAAAAA+"))
    }

    @Test("sendOobCode carries every ActionCodeSettings field flat in its body")
    func sendOobCode() throws {
        let settings = ActionCodeSettings()
        settings.url = URL(string: "https://example.com/welcome")
        settings.handleCodeInApp = true
        settings.iOSBundleID = "com.example.app"
        settings.setAndroidPackageName("com.example.android", installIfNotAvailable: true, minimumVersion: "12")
        settings.linkDomain = "example.page.link"
        let request = SendOobCodeRequest(operation: .verifyEmail, idToken: "t", settings: settings.wireFields)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(request)) as? [String: Any]
        #expect(object?["requestType"] as? String == "VERIFY_EMAIL")
        #expect(object?["continueUrl"] as? String == "https://example.com/welcome")
        #expect(object?["canHandleCodeInApp"] as? Bool == true)
        #expect(object?["iOSBundleId"] as? String == "com.example.app")
        #expect(object?["androidPackageName"] as? String == "com.example.android")
        #expect(object?["androidInstallApp"] as? Bool == true)
        #expect(object?["androidMinimumVersion"] as? String == "12")
        #expect(object?["linkDomain"] as? String == "example.page.link")
        let back = try roundTrip(
            SendOobCodeRequest.self,
            String(decoding: JSONEncoder().encode(request), as: UTF8.self)
        )
        #expect(back.operation == .verifyEmail)
    }

    @Test("an action link is read directly and through a links wrapper")
    func actionCodeURL() throws {
        let action =
            "http://localhost:9099/__/auth/action?mode=verifyAndChangeEmail&oobCode=abc_D&apiKey=key&continueUrl=https%3A%2F%2Fexample.com%2Fdone&lang=fr"
        let wrapped =
            "https://example.page.link/__/auth/links?link="
            + action.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        for link in [action, wrapped] {
            let url = try #require(ActionCodeURL(link: link))
            #expect(url.operation == .verifyAndChangeEmail)
            #expect(url.code == "abc_D")
            #expect(url.apiKey == "key")
            #expect(url.continueURL == URL(string: "https://example.com/done"))
            #expect(url.languageCode == "fr")
        }
        #expect(ActionCodeURL(link: "https://example.com/?x=1") == nil)
        #expect(ActionCodeOperation(requestType: "EMAIL_SIGNIN") == .emailLink)
        #expect(ActionCodeOperation(mode: "signIn") == .emailLink)
    }

    @Test("the error envelope splits its message into a typed code and a detail")
    func errorEnvelope() throws {
        let envelope = try roundTrip(
            GoogleErrorEnvelope.self,
            #"{"error":{"code":400,"message":"WEAK_PASSWORD : Password should be at least 6 characters","errors":[{"message":"WEAK_PASSWORD : Password should be at least 6 characters","domain":"global","reason":"invalid"}]}}"#
        )
        #expect(envelope.error.wireCode == .weakPassword)
        #expect(envelope.error.detail == "Password should be at least 6 characters")
        let status = try roundTrip(
            GoogleErrorEnvelope.self,
            #"{"error":{"code":404,"message":"not found","status":"NOT_FOUND"}}"#
        )
        #expect(status.error.status.flatMap(WireErrorStatus.init(rawValue:)) == .notFound)
    }

    @Test("the secure-token refresh answer uses snake_case and the request has a form body")
    func refresh() throws {
        let response = try roundTrip(
            RefreshTokenResponse.self,
            #"{"access_token":"a","expires_in":"3600","token_type":"Bearer","refresh_token":"r","id_token":"a","user_id":"u","project_id":"p"}"#
        )
        #expect(response.userID == "u")
        #expect(
            RefreshTokenRequest(refreshToken: "a/b+c").formBody == "grant_type=refresh_token&refresh_token=a%2Fb%2Bc"
        )
    }
}
