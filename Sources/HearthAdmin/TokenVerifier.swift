import Foundation
import HearthCrypto
import HearthWire

/// Checks tokens against the project's published keys: the signature (HearthCrypto's
/// `JWT.verify`, which also checks the algorithm against the key's type, `exp` and `nbf`), then
/// that the key that signed it is one of the expected kind.
struct TokenVerifier: Sendable {
    let connection: AdminConnection
    let keys: PublishedKeys

    /// The verified token, or the reason it is refused. Throws ``AdminError`` when the keys
    /// could not be fetched.
    func verify(_ token: String, as purpose: TokenPurpose) async throws -> VerifiedJWT {
        let snapshot = try await keys.current()
        do {
            return try check(token, as: purpose, with: snapshot)
        } catch .unknownKey(let keyID) {
            if let refreshed = try await keys.refreshed(forUnknownKey: keyID) {
                do {
                    return try check(token, as: purpose, with: refreshed)
                } catch .unknownKey {
                    // Still unknown: described below.
                }
            }
            throw try await refusal(ofUnknownKey: keyID, in: token, expected: purpose)
        }
    }

    /// The seconds of the injected clock.
    var nowSeconds: Int64 { Int64(connection.now().timeIntervalSince1970.rounded(.down)) }

    private func check(
        _ token: String,
        as purpose: TokenPurpose,
        with snapshot: PublishedKeys.Snapshot
    ) throws(TokenVerificationError) -> VerifiedJWT {
        var named: String?
        let verified: VerifiedJWT
        do {
            verified = try JWT.verify(
                token,
                keys: { keyID in
                    named = keyID
                    return keyID.flatMap { snapshot[$0]?.verification }
                },
                now: nowSeconds
            )
        } catch {
            switch error {
            case .malformed: throw .malformed
            case .unsupportedAlgorithm: throw .unsupportedAlgorithm
            case .unknownKey: throw .unknownKey(keyID: named)
            case .invalidSignature: throw .invalidSignature
            case .expired: throw .expired
            case .notYetValid: throw .notYetValid
            }
        }
        guard let keyID = verified.header.kid, let key = snapshot[keyID] else { throw .unknownKey(keyID: named) }
        guard key.purpose == purpose else { throw .wrongPurpose(expected: purpose, found: key.purpose) }
        return verified
    }

    /// Names the refusal of a token signed by a key the project does not publish. Its payload
    /// cannot be trusted, so it is read only to say why: a token of the other kind, one naming
    /// another project, or else simply an unknown key.
    private func refusal(
        ofUnknownKey keyID: String?,
        in token: String,
        expected purpose: TokenPurpose
    ) async throws -> TokenVerificationError {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
            let claims = try? JSONDecoder().decode([String: ClaimValue].self, from: Data(payload))
        else { return .malformed }
        let found: TokenPurpose? =
            claims["fid"] != nil
            ? .installationToken
            : claims["iss"]?.stringValue?.hasPrefix(DecodedIDToken.issuerPrefix) == true ? .idToken : nil
        if let found, found != purpose { return .wrongPurpose(expected: purpose, found: found) }
        switch purpose {
        case .idToken:
            if let audience = claims["aud"]?.stringValue, audience != connection.projectID {
                return .wrongProject(expected: connection.projectID, found: audience)
            }
        case .installationToken:
            if let claimed = VerifiedInstallationToken.projectNumber(in: claims) {
                let number = try await keys.number()
                if claimed != number { return .wrongProject(expected: number, found: claimed) }
            }
        }
        return .unknownKey(keyID: keyID)
    }
}
