import Foundation
import HearthTestSupport
import Testing

/// The legacy v3 `relyingparty` paths of the Apple and Android SDKs, and the lenient reading
/// Google's REST mapping promises: snake_case names, integer enums, int64 as strings.
@Suite struct AccountsLegacyAndLenientTests {
    @Test func theLegacyPathsReachTheSameMethods() throws {
        let server = try Accounts.server()
        let client = server.client()
        let legacy = Accounts.legacy
        let signUp = try client.call(
            "signupNewUser",
            ["email": "tara@example.com", "password": "password-1"],
            prefix: legacy
        )
        #expect(signUp.status == 200)
        #expect(signUp.json["kind"] as? String == "identitytoolkit#SignupNewUserResponse")
        let signIn = try client.call(
            "verifyPassword",
            ["email": "tara@example.com", "password": "password-1", "returnSecureToken": true],
            prefix: legacy
        )
        #expect(signIn.json["kind"] as? String == "identitytoolkit#VerifyPasswordResponse")
        let user = try SignedInUser(signIn)

        let info = try client.call("getAccountInfo", ["idToken": user.idToken], prefix: legacy)
        #expect((info.json["users"] as? [[String: Any]])?.first?["email"] as? String == "tara@example.com")
        let set = try client.call("setAccountInfo", ["idToken": user.idToken, "displayName": "Tara"], prefix: legacy)
        #expect(set.json["displayName"] as? String == "Tara")
        let uri = try client.call(
            "createAuthUri",
            ["identifier": "tara@example.com", "continueUri": "http://localhost"],
            prefix: legacy
        )
        #expect(uri.json["kind"] as? String == "identitytoolkit#CreateAuthUriResponse")
        // Apple's SDK asks for the project configuration with GET.
        let config = try client.request("GET", legacy + "getProjectConfig?key=\(Accounts.apiKey)")
        #expect(config.json["authorizedDomains"] as? [String] == ["localhost", "127.0.0.1", "www.example.com"])
        let delete = try client.call("deleteAccount", ["idToken": user.idToken], prefix: legacy)
        #expect(delete.json["kind"] as? String == "identitytoolkit#DeleteAccountResponse")
        #expect(try client.signIn("tara@example.com", "password-1").errorMessage == "INVALID_LOGIN_CREDENTIALS")

        // The same methods without any host prefix.
        let plain = try client.call(
            "signupNewUser",
            ["email": "uma@example.com", "password": "password-1"],
            prefix: "/identitytoolkit/v3/relyingparty/"
        )
        #expect(plain.status == 200)
    }

    @Test func unknownAndUnimplementedLegacyMethodsAreClearErrors() throws {
        let server = try Accounts.server()
        let client = server.client()
        let unknown = try client.call("noSuchMethod", [:], prefix: Accounts.legacy)
        #expect(unknown.status == 404)
        // Known to the legacy API but not served: a client error like its v1 path, never a 5xx.
        for name in ["signOutUser", "uploadAccount", "verifyAssertion", "publicKeys", "setProjectConfig"] {
            let unsupported = try client.call(name, [:], prefix: Accounts.legacy)
            #expect(unsupported.status == 404, "\(name): \(unsupported.text)")
            #expect(unsupported.errorStatus == "NOT_FOUND")
            #expect(unsupported.errorMessage?.contains("not supported") == true)
        }
    }

    @Test func snakeCaseNamesAndIntegerEnumsAreAccepted() throws {
        let server = try Accounts.server()
        let client = server.client()
        let signUp = try client.call(
            "accounts:signUp",
            [
                "email": "vera@example.com", "password": "password-1", "display_name": "Vera",
                "return_secure_token": true,
            ]
        )
        #expect(signUp.json["displayName"] as? String == "Vera")
        let user = try SignedInUser(signUp)
        // Leading underscores and any case: a name is found by its folded form wherever it
        // starts.
        let photo = try client.call(
            "accounts:update",
            ["_ID_TOKEN": user.idToken, "Photo_URL": "https://example.com/v.png", "__Display_name": "Vera B"]
        )
        #expect(photo.json["photoUrl"] as? String == "https://example.com/v.png")
        #expect(photo.json["displayName"] as? String == "Vera B")
        // deleteAttribute as proto numbers: 2 = DISPLAY_NAME, "4" = PHOTO_URL.
        let cleared = try client.call("accounts:update", ["idToken": user.idToken, "delete_attribute": [2, "4"]])
        #expect(cleared.status == 200)
        #expect(cleared.json["displayName"] == nil)
        #expect(cleared.json["photoUrl"] == nil)
        let badEnum = try client.call("accounts:update", ["idToken": user.idToken, "deleteAttribute": [42]])
        #expect(badEnum.status == 400)
        #expect(badEnum.errorMessage?.contains("deleteAttribute") == true)
    }

    @Test func int64FieldsAreReadAsNumbersOrStringsAndWrittenAsStrings() throws {
        let server = try Accounts.server()
        let client = server.client()
        let user = try client.signUp("will@example.com")
        let asString = try client.admin(
            "/v1/projects/demo-project/accounts:update",
            ["localId": user.localID, "validSince": "1000"]
        )
        #expect(asString.status == 200)
        let asNumber = try client.admin(
            "/v1/projects/demo-project/accounts:update",
            ["localId": user.localID, "valid_since": 2000]
        )
        #expect(asNumber.status == 200)
        let lookup = try client.admin("/v1/projects/demo-project/accounts:lookup", ["local_id": [user.localID]])
        let info = try #require((lookup.json["users"] as? [[String: Any]])?.first)
        #expect(info["validSince"] as? String == "2000")
        #expect(info["createdAt"] is String)
        let bad = try client.admin(
            "/v1/projects/demo-project/accounts:update",
            ["localId": user.localID, "validSince": "soon"]
        )
        #expect(bad.status == 400)
        #expect(bad.errorMessage?.contains("validSince") == true)
    }

    @Test func aFieldOfTheWrongTypeIsA400NamingIt() throws {
        let server = try Accounts.server()
        let client = server.client()
        let response = try client.call("accounts:signUp", ["email": 42, "password": "password-1"])
        #expect(response.status == 400)
        #expect(response.errorMessage == "Invalid value at 'email' (TYPE_STRING), 42")
        let notObject = try client.request(
            "POST",
            Accounts.identityToolkit + "accounts:signUp?key=\(Accounts.apiKey)",
            headers: [("Content-Type", "application/json")],
            body: Array("[1,2]".utf8)
        )
        #expect(notObject.status == 400)
        let malformed = try client.request(
            "POST",
            Accounts.identityToolkit + "accounts:signUp?key=\(Accounts.apiKey)",
            headers: [("Content-Type", "application/json")],
            body: Array(#"{"email": "#.utf8)
        )
        #expect(malformed.status == 400)
    }

    @Test func everyPrefixServesTheSameMethod() throws {
        let server = try Accounts.server()
        let client = server.client()
        for (index, prefix) in ["/identitytoolkit.googleapis.com/v1/", "/v1/", "/identitytoolkit.googleapis.com/v1/"]
            .enumerated()
        {
            let response = try client.call(
                index == 2 ? "accounts:signUp/" : "accounts:signUp",
                ["email": "x\(index)@example.com", "password": "password-1"],
                prefix: prefix
            )
            #expect(response.status == 200, "\(prefix)")
        }
    }
}
