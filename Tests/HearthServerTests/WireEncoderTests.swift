import HearthBase
import HearthHTTP
import HearthWire
import Testing

@testable import HearthServer

/// The server writes HearthWire values through their own `Encodable` conformance, in a stable
/// member order, so its answers stay byte-for-byte what they were.
@Suite("WireEncoder and the account answers written with it")
struct WireEncoderTests {
    @Test("members come in declaration order, nil fields are left out, integers stay integers")
    func encodesInOrder() {
        let record = UserRecord(
            localID: "u1",
            email: "kim@example.com",
            emailVerified: false,
            createdAt: "1767225600000",
            passwordUpdatedAt: 1_767_225_600_123,
            providerUserInfo: [
                ProviderUserInfo(providerID: "phone", phoneNumber: "+15551230001", rawID: "+15551230001")
            ]
        )
        let text = String(decoding: WireEncoder.encode(record).serialized(), as: UTF8.self)
        #expect(
            text
                == #"{"localId":"u1","email":"kim@example.com","emailVerified":false,"passwordUpdatedAt":1767225600123,"#
                + #""providerUserInfo":[{"providerId":"phone","phoneNumber":"+15551230001","rawId":"+15551230001"}],"#
                + #""createdAt":"1767225600000"}"#
        )
    }

    @Test("a body whose settings share its object (SendOobCodeRequest) is written as one object")
    func flattenedSettings() {
        var settings = ActionCodeSettingsFields()
        settings.continueURL = "https://www.example.com/after"
        settings.canHandleCodeInApp = true
        let request = SendOobCodeRequest(operation: .verifyEmail, email: "kim@example.com", settings: settings)
        let object = WireEncoder.encode(request).objectValue
        #expect(object?.keys.prefix(2) == ["requestType", "email"])
        #expect(object?["continueUrl"]?.stringValue == "https://www.example.com/after")
        #expect(object?["canHandleCodeInApp"] == .bool(true))
    }

    @Test("sign-in, lookup, update and download answers keep the members and order the server always wrote")
    func accountAnswersKeepTheirOrder() throws {
        let app = try TestApplication()
        let created = app.admin(
            .post,
            "/v1/projects/\(TestApplication.projectID)/accounts",
            [
                "localId": "u1", "email": "kim@example.com", "password": "correct horse battery",
                "photoUrl": "https://p/1",
            ]
        )
        #expect(created.json.objectValue?.keys == ["kind", "localId", "email"])

        let signIn = app.client(
            "/v1/accounts:signInWithPassword",
            ["email": "kim@example.com", "password": "correct horse battery", "returnSecureToken": true]
        )
        #expect(
            signIn.json.objectValue?.keys == [
                "kind", "localId", "email", "displayName", "profilePicture", "registered", "idToken", "refreshToken",
                "expiresIn",
            ]
        )
        #expect(signIn.json["displayName"]?.stringValue == "", "an unset name is answered empty, as Google does")
        let idToken = try #require(signIn.json["idToken"]?.stringValue)

        let lookup = app.client("/v1/accounts:lookup", ["idToken": .string(idToken)])
        #expect(lookup.json.objectValue?.keys == ["kind", "users"])
        let user = try #require(lookup.json["users"]?.arrayValue?.first?.objectValue)
        #expect(
            user.keys == [
                "localId", "email", "emailVerified", "photoUrl", "passwordHash", "passwordUpdatedAt",
                "providerUserInfo", "validSince", "disabled", "lastLoginAt", "createdAt",
            ]
        )
        #expect(user["passwordHash"]?.stringValue == UserRecord.redactedPasswordHash)
        #expect(user["passwordUpdatedAt"].map { if case .int = $0 { true } else { false } } == true)
        #expect(
            user["providerUserInfo"]?.arrayValue?.first?.objectValue?.keys == [
                "providerId", "federatedId", "email", "rawId", "photoUrl",
            ]
        )

        let update = app.client("/v1/accounts:update", ["idToken": .string(idToken), "displayName": "Kim"])
        #expect(
            update.json.objectValue?.keys == [
                "kind", "localId", "email", "displayName", "photoUrl", "passwordHash", "providerUserInfo",
                "emailVerified",
            ]
        )

        let download = app.admin(.get, "/v1/projects/\(TestApplication.projectID)/accounts:batchGet?maxResults=1")
        let exported = try #require(download.json["users"]?.arrayValue?.first?.objectValue)
        #expect(exported["salt"] != nil && exported["passwordHash"]?.stringValue != UserRecord.redactedPasswordHash)
        #expect(exported.keys.firstIndex(of: "salt") == exported.keys.firstIndex(of: "passwordHash").map { $0 + 1 })

        let config = app.send(.get, "/v1/projects?key=\(TestApplication.apiKey)")
        #expect(config.json.objectValue?.keys == ["kind", "projectId", "authorizedDomains"])
    }
}
