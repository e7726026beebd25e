public import HearthBase

/// Developer claims added to a user's ID tokens (the Admin SDKs' `set_custom_user_claims`,
/// sent as the JSON text `customAttributes`). Firebase's rules: a JSON object of at most 1000
/// characters that does not redefine a claim the token itself sets.
public enum CustomClaims {
    public static let maximumCharacters = 1_000

    /// Claims Firebase reserves (the registered and OIDC claims and `firebase`), plus the
    /// profile claims Hearth writes into every token itself, so that a token never carries a
    /// claim twice.
    public static let reserved: Set<String> = [
        "acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "iat", "iss", "jti", "nbf",
        "nonce", "sub", "firebase", "user_id", "email", "email_verified", "name", "picture", "phone_number",
    ]

    /// The claims object of `text`; `nil` for an empty text or `{}` (which clear the claims).
    public static func parse(_ text: String) throws(AuthError) -> JSONObject? {
        if text.unicodeScalars.count > maximumCharacters {
            throw AuthError(.claimsTooLarge, "Custom claims must be at most \(maximumCharacters) characters")
        }
        if text.trimmingASCIIWhitespace().isEmpty { return nil }
        guard let value = try? JSONValue.parse(Array(text.utf8)), case .object(let object) = value else {
            throw AuthError(.invalidClaims, "Custom claims must be a JSON object")
        }
        if let clash = object.keys.first(where: { reserved.contains($0) }) {
            throw AuthError(.forbiddenClaim, clash)
        }
        return object.isEmpty ? nil : object
    }
}
