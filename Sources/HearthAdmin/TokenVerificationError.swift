/// The two kinds of token Hearth signs, each with its own keys: ID tokens (RS256, the
/// project's `idTokens` keys) and installation auth tokens (ES256, its `installations` keys).
public enum TokenPurpose: String, Sendable, Hashable {
    /// A Firebase ID token of a signed-in user.
    case idToken
    /// A Firebase Installations auth token.
    case installationToken
}

/// Why a token was refused. Each case is a different fault, so a caller can tell a forged token
/// from an old one or one meant for something else.
public enum TokenVerificationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not a compact JWT (three base64url parts of JSON), or its claims lack what a token of
    /// the expected kind carries.
    case malformed
    /// The signature does not verify: the token was altered.
    case invalidSignature
    /// The header names an algorithm other than the one keys of this kind sign with.
    case unsupportedAlgorithm
    /// The token names a key (`kid`) the project does not publish, even after fetching its keys
    /// again.
    case unknownKey(keyID: String?)
    /// The token's `exp` has passed.
    case expired
    /// The token's `nbf` is still ahead.
    case notYetValid
    /// The token belongs to another project: `found` is the project ID (ID tokens) or project
    /// number (installation tokens) it names.
    case wrongProject(expected: String, found: String?)
    /// The token is of the other kind: an installation token given where an ID token was
    /// expected, or the reverse.
    case wrongPurpose(expected: TokenPurpose, found: TokenPurpose)
    /// `checkRevoked`: the user's sessions were revoked after this token was issued.
    case revoked
    /// `checkRevoked`: the user is disabled.
    case userDisabled
    /// `checkRevoked`: the user no longer exists.
    case userNotFound
    /// `online`: Hearth no longer holds the installation the token names (it was deleted).
    case installationDeleted

    /// What was wrong, in a sentence.
    public var description: String {
        switch self {
        case .malformed: "the token is not a well-formed token of the expected kind"
        case .invalidSignature: "the token's signature does not verify (it was altered)"
        case .unsupportedAlgorithm: "the token's algorithm is not the one its kind is signed with"
        case .unknownKey(let keyID): "the project publishes no key \(keyID ?? "(none named)")"
        case .expired: "the token has expired"
        case .notYetValid: "the token is not valid yet"
        case .wrongProject(let expected, let found):
            "the token belongs to \(found ?? "another project"), not \(expected)"
        case .wrongPurpose(let expected, let found): "expected \(expected.rawValue), got \(found.rawValue)"
        case .revoked: "the user's tokens were revoked after this token's sign-in"
        case .userDisabled: "the user is disabled"
        case .userNotFound: "the user no longer exists"
        case .installationDeleted: "the installation was deleted"
        }
    }
}
