import Foundation
import HearthCrypto
import HearthTestSupport
import Testing

/// Shared by the accounts end-to-end suites: Identity Toolkit calls as the Firebase SDKs make
/// them, and a second project (`open-project`, enumeration protection off) next to the seed.
enum Accounts {
    static let apiKey = "demo-api-key"
    static let openAPIKey = "open-api-key"
    static let identityToolkit = "/identitytoolkit.googleapis.com/v1/"
    static let legacy = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"
    static let secureToken = "/securetoken.googleapis.com/v1/token"

    /// A server with the development seed and, with `openProject`, a second project
    /// (`open-project`, key `open-api-key`) whose email-enumeration protection is off.
    static func server(openProject: Bool = false, seed: Bool = true, testClock: Bool = true) throws
        -> HearthServerProcess
    {
        var arguments: [String] = []
        if testClock { arguments.append("--test-clock") }
        if openProject {
            arguments += ["--config", try configurationFile()]
            if seed { arguments.append("--dev") }
        }
        return try HearthServerProcess(arguments: arguments)
    }

    /// A configuration file with `open-project`: always the same text, so one file serves every
    /// test (written atomically, so a server never reads it half-written).
    static func configurationFile() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-accounts-open-project.json")
        let document = """
            {"projects": [{"projectId": "open-project", "projectNumber": "200000000000", "apiKeys": ["open-api-key"],
              "authorizedDomains": ["localhost"], "settings": {"emailEnumerationProtection": false}}]}
            """
        try Data(document.utf8).write(to: path, options: .atomic)
        return path.path
    }
}

/// The tokens of a signed-in user.
struct SignedInUser {
    var localID: String
    var idToken: String
    var refreshToken: String
}

extension TestHTTPClient {
    /// `POST <prefix><method>?key=<key>` with a JSON body.
    @discardableResult
    func call(
        _ method: String,
        _ body: [String: Any],
        key: String? = Accounts.apiKey,
        prefix: String = Accounts.identityToolkit,
        headers: [(String, String)] = []
    ) throws -> TestResponse {
        let query = key.map { "?key=\($0)" } ?? ""
        return try json("POST", prefix + method + query, body, headers: headers)
    }

    /// An admin call with `Authorization: Bearer <credential>`.
    @discardableResult
    func admin(
        _ path: String,
        _ body: [String: Any],
        credential: String = "owner",
        method: String = "POST"
    ) throws -> TestResponse {
        try json(method, path, method == "GET" ? nil : body, headers: [("Authorization", "Bearer \(credential)")])
    }

    /// Signs a new user up and answers its tokens.
    func signUp(_ email: String, _ password: String = "password-1", key: String = Accounts.apiKey) throws
        -> SignedInUser
    {
        let response = try call(
            "accounts:signUp",
            ["email": email, "password": password, "returnSecureToken": true],
            key: key
        )
        try #require(response.status == 200, "sign-up failed: \(response.text)")
        return try SignedInUser(response)
    }

    func signIn(_ email: String, _ password: String, key: String = Accounts.apiKey) throws -> TestResponse {
        try call(
            "accounts:signInWithPassword",
            ["email": email, "password": password, "returnSecureToken": true],
            key: key
        )
    }

    /// `POST /emulator/v1/clock` (servers started with `--test-clock`).
    func advanceClock(seconds: Int) throws {
        let response = try json("POST", "/emulator/v1/clock", ["advanceSeconds": seconds])
        try #require(response.status == 200)
    }

    /// The server's time in whole seconds.
    func serverSeconds() throws -> Int {
        let clock = try request("GET", "/emulator/v1/clock").json
        return try #require(Int(clock["nowMillis"] as? String ?? "")) / 1000
    }

    /// Moves the server's clock to just after the start of a rate-limit window of `seconds`,
    /// so that a burst of attempts all land in one fixed window; answers the window's start.
    @discardableResult
    func alignClockToWindow(seconds: Int) throws -> Int {
        let now = try serverSeconds()
        let start = now - now % seconds + seconds
        try advanceClock(seconds: start + 1 - now)
        return start
    }

    /// The project's published keys, for verifying tokens as a relying party would.
    func verificationKeys(project: String = "demo-project") throws -> [String: JWT.VerificationKey] {
        let response = try request("GET", "/v1/projects/\(project)/jwks")
        let keys = try JSONDecoder().decode(JSONWebKeySet.self, from: Data(response.body))
        var byID: [String: JWT.VerificationKey] = [:]
        for key in keys.keys { byID[key.kid ?? ""] = try JWT.VerificationKey(jwk: key) }
        return byID
    }
}

extension SignedInUser {
    init(_ response: TestResponse) throws {
        let json = response.json
        localID = try #require(json["localId"] as? String)
        idToken = try #require(json["idToken"] as? String)
        refreshToken = try #require(json["refreshToken"] as? String)
    }
}

/// The decoded payload of a compact JWT, as a JSON object.
func jwtClaims(_ token: String) -> [String: Any] {
    let parts = token.split(separator: ".")
    guard parts.count == 3, let bytes = Base64URL.decode(parts[1]) else { return [:] }
    return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
}
