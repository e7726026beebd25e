import HearthBase
import HearthCrypto

@testable import HearthHTTP

/// Account steps the revocation and user-model tests share.
extension TestApplication {
    /// `POST /v1/token` with a refresh token, form-encoded as the JS SDK sends it.
    func refresh(_ refreshToken: String) -> TestAnswer {
        send(
            .post,
            "/v1/token?key=\(Self.apiKey)",
            rawBody: Array("grant_type=refresh_token&refresh_token=\(refreshToken)".utf8),
            headers: [("Content-Type", "application/x-www-form-urlencoded")]
        )
    }

    /// `accounts:signInWithPassword` for `email`.
    func signIn(_ email: String, password: String = "correct horse battery") -> TestAnswer {
        client(
            "/v1/accounts:signInWithPassword",
            ["email": .string(email), "password": .string(password), "returnSecureToken": true]
        )
    }

    /// The admin lookup of one user by ID (`users[0]`, or `null`).
    func adminUser(_ localID: String) -> JSONValue {
        admin(.post, "/v1/projects/\(Self.projectID)/accounts:lookup", ["localId": [.string(localID)]])
            .json["users"]?[0] ?? .null
    }

    /// The clock's current second, as firebase-admin's `revoke_refresh_tokens` sends it.
    var nowSeconds: Int64 { clock.nowMilliseconds() / 1_000 }
}

/// The claims of a JWT (its payload, not verified).
func jwtClaims(_ token: String) -> JSONValue {
    let parts = token.split(separator: ".")
    guard parts.count == 3, let bytes = Base64URL.decode(parts[1]) else { return .null }
    return (try? JSONValue.parse(bytes)) ?? .null
}
