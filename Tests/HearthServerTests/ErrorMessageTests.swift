import Foundation
import HearthBase
import HearthCore
import HearthHTTP
import Testing

@testable import HearthServer

/// Error messages as Firebase words them: a bare code where Firebase answers a bare code (so
/// SDKs show their own text), Firebase's detail where it adds one.
@Suite("Error messages as Firebase words them")
struct ErrorMessageTests {
    /// Firebase's wording of every code Hearth sends (production, or the Firebase Auth
    /// emulator, which mirrors it): `nil` for a bare code, "*" for a detail naming the case.
    static let firebaseWording: [String: String?] = [
        "API_KEY_INVALID": "API key not valid. Please pass a valid API key.",
        "CLAIMS_TOO_LARGE": nil, "DUPLICATE_LOCAL_ID": nil, "EMAIL_EXISTS": nil, "EMAIL_NOT_FOUND": nil,
        "EXPIRED_OOB_CODE": nil, "FORBIDDEN_CLAIM": "*", "INSUFFICIENT_PERMISSION": nil,
        "INVALID_ANDROID_PACKAGE_NAME": nil, "INVALID_CLAIMS": nil, "INVALID_CONTINUE_URI": "*",
        "INVALID_DYNAMIC_LINK_DOMAIN": nil, "INVALID_EMAIL": "*", "INVALID_GRANT_TYPE": nil,
        "INVALID_HOSTING_LINK_DOMAIN": nil, "INVALID_ID_TOKEN": nil, "INVALID_IDENTIFIER": nil,
        "INVALID_IOS_BUNDLE_ID": nil, "INVALID_LOCAL_ID": nil, "INVALID_LOGIN_CREDENTIALS": nil,
        "INVALID_OOB_CODE": nil, "INVALID_PAGE_SELECTION": nil, "INVALID_PASSWORD": nil,
        "INVALID_PHONE_NUMBER": "Invalid format.", "PHONE_NUMBER_EXISTS": nil,
        "INVALID_REFRESH_TOKEN": nil, "INVALID_REQ_TYPE": "Unsupported request parameters.",
        "MISSING_ANDROID_PACKAGE_NAME": nil, "MISSING_CONTINUE_URI": nil, "MISSING_EMAIL": nil,
        "MISSING_GRANT_TYPE": nil, "MISSING_ID_TOKEN": nil, "MISSING_IDENTIFIER": nil,
        "MISSING_IOS_BUNDLE_ID": nil, "MISSING_LOCAL_ID": nil, "MISSING_NEW_EMAIL": nil,
        "MISSING_OOB_CODE": nil, "MISSING_PASSWORD": nil, "MISSING_REFRESH_TOKEN": nil, "MISSING_REQ_TYPE": nil,
        "OPERATION_NOT_ALLOWED": "*", "PASSWORD_DOES_NOT_MEET_REQUIREMENTS": "*", "TOKEN_EXPIRED": nil,
        "TOO_MANY_ATTEMPTS_TRY_LATER": "*", "UNAUTHORIZED_DOMAIN": "Domain not allowlisted by project",
        "USER_DISABLED": nil, "USER_NOT_FOUND": nil, "WEAK_PASSWORD": "Password should be at least 6 characters",
    ]

    @Test("the table words every code as Firebase does, whatever detail Hearth gives it")
    func tableMatchesFirebase() {
        #expect(Set(AuthError.Code.wordings.keys.map(\.rawValue)) == Set(Self.firebaseWording.keys))
        for (raw, wording) in Self.firebaseWording {
            let code = AuthError.Code(rawValue: raw)
            let withDetail = AuthError(code, "a detail of Hearth's")
            switch wording {
            case nil:
                #expect(withDetail.message == raw)
                #expect(withDetail.description.contains("a detail of Hearth's"), "the detail stays in logs")
            case "*":
                #expect(withDetail.message == "\(raw) : a detail of Hearth's")
                #expect(AuthError(code).message == raw)
            case let fixed?:
                #expect(withDetail.message == "\(raw) : \(fixed)")
                #expect(AuthError(code).message == "\(raw) : \(fixed)")
            }
        }
    }

    @Test("every code AuthError declares has its wording in the table (a code left out would go bare unseen)")
    func everyDeclaredCodeIsWorded() throws {
        let source = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/HearthCore/Accounts/AuthError.swift")
        let text = try String(contentsOf: source, encoding: .utf8)
        let declared = text.matches(of: /static let \w+ = Code\(rawValue: "([A-Z_]+)"\)/).map { String($0.output.1) }
        #expect(declared.count > 40)
        let worded = Set(AuthError.Code.wordings.keys.map(\.rawValue))
        #expect(declared.filter { !worded.contains($0) } == [])
    }

    @Test("requests that meet each refusal get Firebase's exact message")
    func refusalsOnTheWire() throws {
        let app = try TestApplication()
        try app.application.prepareSigningKeys()
        let user = try app.signUp("ada@example.com")
        let idToken = try #require(user["idToken"]?.stringValue)
        let localID = try #require(user["localId"]?.stringValue)
        let sendOob = "/v1/accounts:sendOobCode"
        let adminOob = "/v1/projects/demo-project/accounts:sendOobCode"
        let adminUpdate = "/v1/projects/demo-project/accounts:update"
        let cases: [(String, TestAnswer)] = [
            ("INVALID_OOB_CODE", app.client("/v1/accounts:resetPassword", ["oobCode": "nonsense"])),
            ("MISSING_OOB_CODE", app.client("/v1/accounts:resetPassword", [:])),
            ("MISSING_REQ_TYPE", app.client(sendOob, ["email": "ada@example.com"])),
            (
                "INVALID_HOSTING_LINK_DOMAIN",
                app.client(
                    sendOob,
                    [
                        "requestType": "EMAIL_SIGNIN", "email": "ada@example.com", "canHandleCodeInApp": true,
                        "continueUrl": "http://localhost/", "linkDomain": "elsewhere.example.org",
                    ]
                )
            ),
            (
                "UNAUTHORIZED_DOMAIN : Domain not allowlisted by project",
                app.client(
                    sendOob,
                    [
                        "requestType": "PASSWORD_RESET", "email": "ada@example.com",
                        "continueUrl": "https://evil.example/",
                    ]
                )
            ),
            (
                "MISSING_IOS_BUNDLE_ID",
                app.client(
                    sendOob,
                    [
                        "requestType": "PASSWORD_RESET", "email": "ada@example.com",
                        "continueUrl": "http://localhost/", "iOSAppStoreId": "123",
                    ]
                )
            ),
            (
                "INSUFFICIENT_PERMISSION",
                app.client(
                    sendOob,
                    ["requestType": "PASSWORD_RESET", "email": "ada@example.com", "returnOobLink": true]
                )
            ),
            (
                "USER_NOT_FOUND",
                app.admin(
                    .post,
                    adminOob,
                    ["requestType": "VERIFY_EMAIL", "email": "nobody@example.com", "returnOobLink": true]
                )
            ),
            ("MISSING_EMAIL", app.client(sendOob, ["requestType": "PASSWORD_RESET"])),
            (
                "WEAK_PASSWORD : Password should be at least 6 characters",
                app.client("/v1/accounts:signUp", ["email": "b@example.com", "password": "123"])
            ),
            ("EMAIL_EXISTS", app.client("/v1/accounts:signUp", ["email": "ada@example.com", "password": "123456"])),
            ("INVALID_EMAIL", app.client("/v1/accounts:signUp", ["email": "not an address", "password": "123456"])),
            ("MISSING_PASSWORD", app.client("/v1/accounts:signInWithPassword", ["email": "ada@example.com"])),
            (
                "INVALID_LOGIN_CREDENTIALS",
                app.client("/v1/accounts:signInWithPassword", ["email": "ada@example.com", "password": "wrong one"])
            ),
            ("INVALID_ID_TOKEN", app.client("/v1/accounts:lookup", ["idToken": "not.a.token"])),
            ("MISSING_ID_TOKEN", app.client("/v1/accounts:lookup", [:])),
            ("MISSING_GRANT_TYPE", app.client("/v1/token", ["refreshToken": "x"])),
            ("INVALID_GRANT_TYPE", app.client("/v1/token", ["grantType": "password", "refreshToken": "x"])),
            ("INVALID_REFRESH_TOKEN", app.client("/v1/token", ["grantType": "refresh_token", "refreshToken": "x"])),
            ("MISSING_LOCAL_ID", app.admin(.post, adminUpdate, ["displayName": "Ada"])),
            ("USER_NOT_FOUND", app.admin(.post, adminUpdate, ["localId": "nobody"])),
            (
                "FORBIDDEN_CLAIM : sub",
                app.admin(.post, adminUpdate, ["localId": .string(localID), "customAttributes": #"{"sub":"x"}"#])
            ),
            (
                "INVALID_CLAIMS",
                app.admin(.post, adminUpdate, ["localId": .string(localID), "customAttributes": "[1]"])
            ),
            ("MISSING_IDENTIFIER", app.client("/v1/accounts:createAuthUri", [:])),
            (
                "OPERATION_NOT_ALLOWED : Please verify the new email before changing email.",
                app.client("/v1/accounts:update", ["idToken": .string(idToken), "email": "new@example.com"])
            ),
        ]
        for (expected, answer) in cases {
            #expect(answer.status == 400, "\(expected): \(answer.text)")
            #expect(answer.errorMessage == expected, "\(answer.text)")
            #expect(answer.json["error"]?["errors"]?[0]?["message"]?.stringValue == expected)
        }
    }
}
