import HearthCrypto

/// The anti-forgery token of the action page's form: an HMAC of the form's code under a key
/// derived from the server's master key. The page that shows a code's form carries the token;
/// a `POST` without it (a form built elsewhere, a replayed request for another code) is
/// refused before the code is used. It needs no state, so any node of a deployment sharing the
/// master key checks what another rendered.
public struct ActionFormToken: Sendable {
    private let key: [UInt8]

    public init(masterKey: MasterKey) {
        key = masterKey.derivedKey(for: "action page form")
    }

    /// The token for the form of `code`.
    public func token(for code: String) -> String {
        Base64URL.encode(HMACSHA256.authenticationCode(key: key, message: Array(code.utf8)))
    }

    /// Whether `token` is the one `token(for: code)` makes, compared in constant time.
    public func matches(_ token: String?, code: String) -> Bool {
        guard let token, let given = Base64URL.decode(token) else { return false }
        return constantTimeEquals(given, HMACSHA256.authenticationCode(key: key, message: Array(code.utf8)))
    }
}
