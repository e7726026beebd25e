import HearthBase
import HearthCrypto
import HearthHTTP
import Testing

/// Users as the Admin SDKs model them: a phone number admins set, change, remove and look users
/// up by (though nobody signs in with it), and password hashes in admin downloads only.
@Suite("Users as the Admin SDKs model them, in-process")
struct UserModelRouteTests {
    static let accounts = "/v1/projects/demo-project/accounts"

    private func create(_ app: TestApplication, _ fields: JSONObject) -> TestAnswer {
        app.admin(.post, Self.accounts, .object(fields))
    }

    private func update(_ app: TestApplication, _ fields: JSONObject) -> TestAnswer {
        app.admin(.post, Self.accounts + ":update", .object(fields))
    }

    private func lookUp(_ app: TestApplication, phoneNumbers: [String]) -> [JSONValue] {
        app.admin(.post, Self.accounts + ":lookup", ["phoneNumber": .array(phoneNumbers.map { .string($0) })])
            .json["users"]?.arrayValue ?? []
    }

    @Test("an admin sets, changes and removes a phone number, and looks users up by it")
    func phoneNumberLifecycle() throws {
        let app = try TestApplication()
        let created = create(app, ["localId": "p1", "email": "p1@example.com", "phoneNumber": "+15551230001"])
        #expect(created.status == 200)
        let found = lookUp(app, phoneNumbers: ["+15551230001", "+15559999999"])
        #expect(found.count == 1)
        #expect(found.first?["localId"]?.stringValue == "p1")
        #expect(found.first?["phoneNumber"]?.stringValue == "+15551230001")
        let providers = found.first?["providerUserInfo"]?.arrayValue ?? []
        let phone = providers.first { $0["providerId"]?.stringValue == "phone" }
        #expect(phone?["phoneNumber"]?.stringValue == "+15551230001")
        #expect(phone?["rawId"]?.stringValue == "+15551230001")

        #expect(update(app, ["localId": "p1", "phoneNumber": "+442071234567"]).status == 200)
        #expect(lookUp(app, phoneNumbers: ["+15551230001"]).isEmpty)
        #expect(app.adminUser("p1")["phoneNumber"]?.stringValue == "+442071234567")

        // firebase-admin removes it as it unlinks the provider.
        #expect(update(app, ["localId": "p1", "deleteProvider": ["phone"]]).status == 200)
        #expect(app.adminUser("p1")["phoneNumber"] == nil)
        #expect(lookUp(app, phoneNumbers: ["+442071234567"]).isEmpty)
        // The email and its provider are untouched.
        #expect(app.adminUser("p1")["email"]?.stringValue == "p1@example.com")
    }

    @Test("a phone number belongs to one user of a project")
    func phoneNumbersAreUnique() throws {
        let app = try TestApplication()
        #expect(create(app, ["localId": "u1", "phoneNumber": "+15551230002"]).status == 200)
        let clash = create(app, ["localId": "u2", "phoneNumber": "+15551230002"])
        #expect(clash.status == 400)
        #expect(clash.errorMessage == "PHONE_NUMBER_EXISTS")
        #expect(create(app, ["localId": "u2", "phoneNumber": "+15551230003"]).status == 200)
        #expect(update(app, ["localId": "u2", "phoneNumber": "+15551230002"]).errorMessage == "PHONE_NUMBER_EXISTS")
        // Setting a user's own number again is no clash.
        #expect(update(app, ["localId": "u1", "phoneNumber": "+15551230002"]).status == 200)
        // Removed, the number is free for another user.
        update(app, ["localId": "u1", "deleteProvider": ["phone"]])
        #expect(update(app, ["localId": "u2", "phoneNumber": "+15551230002"]).status == 200)
    }

    @Test(
        "a number not in E.164 form is INVALID_PHONE_NUMBER",
        arguments: [
            "15551230004", "+", "+0555123", "+1 555 123 0004", "+1-555-1230004", "+1234567890123456", "+1555abc",
            "+١٢٣",
        ]
    )
    func invalidPhoneNumbers(_ number: String) throws {
        let app = try TestApplication()
        let created = create(app, ["localId": "bad", "phoneNumber": .string(number)])
        #expect(created.status == 400)
        #expect(created.errorMessage?.hasPrefix("INVALID_PHONE_NUMBER") == true)
        #expect(create(app, ["localId": "ok"]).status == 200)
        #expect(
            update(app, ["localId": "ok", "phoneNumber": .string(number)]).errorMessage?
                .hasPrefix("INVALID_PHONE_NUMBER") == true
        )
    }

    @Test("the phone number is in the user's own lookup and ID tokens, but an app cannot set one")
    func appsSeeButCannotSetPhoneNumbers() throws {
        let app = try TestApplication()
        let signedUp = try app.signUp("ph@example.com")
        let localID = try #require(signedUp["localId"]?.stringValue)
        let idToken = try #require(signedUp["idToken"]?.stringValue)
        #expect(update(app, ["localId": .string(localID), "phoneNumber": "+15551230005"]).status == 200)

        let own = app.client("/v1/accounts:lookup", ["idToken": .string(idToken)])
        #expect(own.json["users"]?[0]?["phoneNumber"]?.stringValue == "+15551230005")
        let refreshToken = try #require(signedUp["refreshToken"]?.stringValue)
        let refreshed = try #require(app.refresh(refreshToken).json["id_token"]?.stringValue)
        let claims = jwtClaims(refreshed)
        #expect(claims["phone_number"]?.stringValue == "+15551230005")
        #expect(claims["firebase"]?["identities"]?["phone"]?[0]?.stringValue == "+15551230005")

        let set = app.client("/v1/accounts:update", ["idToken": .string(idToken), "phoneNumber": "+15551230006"])
        #expect(set.status == 400)
        #expect(set.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true)
        // A client that sends its whole model back, number included, changes nothing.
        let same = app.client(
            "/v1/accounts:update",
            ["idToken": .string(idToken), "phoneNumber": "+15551230005", "displayName": "Phil"]
        )
        #expect(same.status == 200)
        // Unlinking the phone provider is the user's to do.
        let unlinked = app.client("/v1/accounts:update", ["idToken": .string(idToken), "deleteProvider": ["phone"]])
        #expect(unlinked.status == 200)
        #expect(app.adminUser(localID)["phoneNumber"] == nil)
    }

    @Test(
        "phone sign-in methods answer OPERATION_NOT_ALLOWED on every path",
        arguments: [
            "/v1/accounts:sendVerificationCode", "/v1/accounts:signInWithPhoneNumber",
            "/identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode",
            "/www.googleapis.com/identitytoolkit/v3/relyingparty/sendVerificationCode",
            "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPhoneNumber",
        ]
    )
    func phoneSignInIsRefused(_ path: String) throws {
        let app = try TestApplication()
        let answer = app.client(path, ["phoneNumber": "+15551230007", "recaptchaToken": "x"])
        #expect(answer.status == 400)
        #expect(answer.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true)
        #expect(app.send(.post, path, json: ["phoneNumber": "+15551230007"]).status == 403)
    }

    @Test("an admin download carries each password hash and salt; no lookup does")
    func passwordHashesOnlyInAdminDownloads() throws {
        let app = try TestApplication()
        let signedUp = try app.signUp("hash@example.com", password: "hash me please")
        let localID = try #require(signedUp["localId"]?.stringValue)
        let idToken = try #require(signedUp["idToken"]?.stringValue)
        #expect(create(app, ["localId": "no-password", "email": "nopass@example.com"]).status == 200)

        let download = app.admin(.get, Self.accounts + ":batchGet?maxResults=10")
        #expect(download.status == 200)
        let users = download.json["users"]?.arrayValue ?? []
        let user = try #require(users.first { $0["localId"]?.stringValue == localID })
        let encoded = try #require(user["passwordHash"]?.stringValue)
        let phcBytes = try #require(Base64.decode(encoded))
        let phc = String(decoding: phcBytes, as: UTF8.self)
        #expect(phc.hasPrefix("$argon2id$v=19$m="))
        #expect(Argon2id.verify(password: "hash me please", phc: phc))
        #expect(!Argon2id.verify(password: "not the password", phc: phc))
        let saltText = try #require(user["salt"]?.stringValue)
        let salt = try #require(Base64.decode(saltText))
        #expect(salt.count == Argon2id.saltByteCount)
        #expect(Argon2id.salt(ofPHC: phc) == salt)
        let passwordless = try #require(users.first { $0["localId"]?.stringValue == "no-password" })
        #expect(passwordless["passwordHash"] == nil && passwordless["salt"] == nil)

        // Lookups, the app's own and an admin's, and update answers show the redacted marker.
        let own = app.client("/v1/accounts:lookup", ["idToken": .string(idToken)]).json["users"]?[0]
        let adminLookup = app.adminUser(localID)
        let updated = app.client("/v1/accounts:update", ["idToken": .string(idToken), "displayName": "H"]).json
        for shown in [own, adminLookup, updated] {
            #expect(shown?["passwordHash"]?.stringValue == "UkVEQUNURUQ=")
            #expect(shown?["salt"] == nil)
        }
        let ownText = app.client("/v1/accounts:lookup", ["idToken": .string(idToken)]).text
        #expect(!ownText.contains(encoded) && !ownText.contains("argon2"))
        // An app cannot download.
        let refused = app.send(.get, Self.accounts + ":batchGet?key=demo-api-key")
        #expect(refused.status == 401)
        #expect(!refused.text.contains(encoded))
    }
}
