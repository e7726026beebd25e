import HearthBase
import HearthCrypto

/// Installation auth tokens: ES256 JWTs signed with the project's installation key, with the
/// claims Firebase's own tokens carry (`appId`, `exp`, `fid`, `projectNumber`) plus `iat`,
/// and the key's ID in the header's `kid`.
public enum InstallationToken {
    /// Signs a token for `fid` of `appID`, issued at `issuedAt` (seconds) and valid for
    /// `lifetimeSeconds`.
    static func sign(
        fid: String,
        appID: String,
        projectNumber: String,
        issuedAt: Int64,
        lifetimeSeconds: Int64,
        key: KeyRing.ActiveKey
    ) throws -> String {
        var writer = JSONWriter(reservingCapacity: 160 + appID.utf8.count)
        writer.beginObject()
        writer.key("appId")
        writer.string(appID)
        writer.key("exp")
        writer.int(issuedAt + lifetimeSeconds)
        writer.key("fid")
        writer.string(fid)
        writer.key("projectNumber")
        // A JSON number, as in Firebase's tokens; project numbers are validated digits.
        if let number = Int64(projectNumber) { writer.int(number) } else { writer.string(projectNumber) }
        writer.key("iat")
        writer.int(issuedAt)
        writer.endObject()
        return try JWT.sign(payload: writer.bytes, key: key.key, keyID: key.keyID)
    }
}

/// What a verified installation token says.
public struct VerifiedInstallationToken: Sendable, Equatable {
    public var fid: String
    public var appID: String
    public var projectNumber: String
    public var issuedAt: Int64?
    public var expiresAt: Int64
}

extension InstallationToken {
    /// Checks signature (with a published installation key of the project), expiry and the
    /// claims' shape and project. Existence is the registry's business.
    static func verify(
        _ token: String,
        project: Project,
        keys: KeyRing,
        now: Int64
    ) throws(InstallationError) -> VerifiedInstallationToken {
        let verified: VerifiedJWT
        do {
            verified = try JWT.verify(
                token,
                keys: { keyID in keyID.flatMap { keys.verificationKey(projectID: project.id, keyID: $0) } },
                now: now
            )
        } catch .expired {
            throw .tokenExpired
        } catch {
            throw .invalidToken(error.description)
        }
        // Only installation keys sign ES256; this keeps an ID token of the project out.
        guard verified.header.alg == ES256.algorithm else { throw .invalidToken("not an installation token") }
        guard let claims = try? JSONValue.parse(verified.payload),
            let fid = claims["fid"]?.stringValue,
            let appID = claims["appId"]?.stringValue,
            let number = claims["projectNumber"].flatMap({ $0.int64Value.map(String.init) ?? $0.stringValue }),
            let expiresAt = verified.claims.exp
        else { throw .invalidToken("claims missing") }
        guard number == project.number else { throw .invalidToken("token of another project") }
        return VerifiedInstallationToken(
            fid: fid,
            appID: appID,
            projectNumber: number,
            issuedAt: verified.claims.iat,
            expiresAt: expiresAt
        )
    }
}
