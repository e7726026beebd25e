public import HearthBase
import HearthCrypto
public import HearthStore

/// Firebase ID tokens: RS256 JWTs signed with the project's `idTokens` key, shaped like the
/// ones `securetoken.google.com` issues, so the Admin SDKs (in emulator mode) and any JWT
/// library configured with Hearth's JWKS accept them.
///
///     {"iss":"https://securetoken.google.com/<projectId>","aud":"<projectId>","auth_time":…,
///      "user_id":"<uid>","sub":"<uid>","iat":…,"exp":…,"email":…,"email_verified":…,
///      "phone_number":…,"firebase":{"identities":{"email":[…],"phone":[…]},"sign_in_provider":"password"}}
///
/// Custom claims come first, then the profile claims (`name`, `picture`), then the claims
/// above. The payload is written byte by byte (no encoder): token refresh is a hot path.
public struct IDTokens: Sendable {
    let keys: KeyRing
    let clock: any Clock

    public init(keys: KeyRing, clock: any Clock) {
        self.keys = keys
        self.clock = clock
    }

    public static func issuer(projectID: String) -> String { "https://securetoken.google.com/\(projectID)" }

    /// Signs an ID token for `account`.
    /// - Parameters:
    ///   - authTimeSeconds: when the user signed in for this session.
    ///   - issuedAtSeconds: the token's `iat`: the instant its session was recorded, so a new
    ///     session's first token has `iat` equal to `auth_time` as Firebase's have, however long
    ///     the signing waited; now when `nil` (a refresh).
    public func issue(
        for account: AccountRecord,
        project: Project,
        authTimeSeconds: Int64,
        issuedAtSeconds: Int64? = nil
    ) throws -> String {
        let now = issuedAtSeconds ?? clock.nowSeconds()
        let key = try keys.activeKey(projectID: project.id, purpose: .idTokens)
        let payload = Self.payload(
            for: account,
            projectID: project.id,
            authTimeSeconds: authTimeSeconds,
            issuedAt: now,
            lifetimeSeconds: project.settings.idTokenLifetimeSeconds
        )
        return try JWT.sign(payload: payload, key: key.key, keyID: key.keyID)
    }

    /// The payload bytes of an ID token.
    static func payload(
        for account: AccountRecord,
        projectID: String,
        authTimeSeconds: Int64,
        issuedAt: Int64,
        lifetimeSeconds: Int64
    ) -> [UInt8] {
        var start: [UInt8] = [UInt8(ascii: "{")]
        start.reserveCapacity(512)
        if let claims = account.customAttributes, let members = Self.objectMembers(claims) {
            // Stored claims are a validated, compact JSON object: splice its members in.
            start.append(contentsOf: members)
            start.append(UInt8(ascii: ","))
        }
        var writer = JSONWriter(appendingTo: start)
        if let name = account.displayName {
            writer.key("name")
            writer.string(name)
        }
        if let picture = account.photoURL {
            writer.key("picture")
            writer.string(picture)
        }
        writer.key("iss")
        writer.string(issuer(projectID: projectID))
        writer.key("aud")
        writer.string(projectID)
        writer.key("auth_time")
        writer.int(authTimeSeconds)
        writer.key("user_id")
        writer.string(account.localID)
        writer.key("sub")
        writer.string(account.localID)
        writer.key("iat")
        writer.int(issuedAt)
        writer.key("exp")
        writer.int(issuedAt + lifetimeSeconds)
        if let email = account.email {
            writer.key("email")
            writer.string(email)
            writer.key("email_verified")
            writer.bool(account.emailVerified)
        }
        if let phoneNumber = account.phoneNumber {
            writer.key("phone_number")
            writer.string(phoneNumber)
        }
        writer.key("firebase")
        writer.beginObject()
        writer.key("identities")
        writer.beginObject()
        if let email = account.email {
            writer.key("email")
            writer.beginArray()
            writer.string(email)
            writer.endArray()
        }
        if let phoneNumber = account.phoneNumber {
            writer.key("phone")
            writer.beginArray()
            writer.string(phoneNumber)
            writer.endArray()
        }
        writer.endObject()
        writer.key("sign_in_provider")
        writer.string("password")
        writer.endObject()
        writer.endObject()
        return writer.bytes
    }

    /// The bytes between the braces of a compact JSON object text, `nil` when it has none.
    private static func objectMembers(_ text: String) -> ArraySlice<UInt8>? {
        let bytes = Array(text.utf8)
        guard bytes.count > 2, bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        return bytes[1..<(bytes.count - 1)]
    }

    /// What a verified ID token says.
    public struct Verified: Sendable, Equatable {
        public var localID: String
        public var issuedAt: Int64
        public var authTimeSeconds: Int64
    }

    /// Checks the signature (a key of this project), `iss`, `aud`, `sub` and expiry. Whether the
    /// account still exists and still accepts the token is the caller's check.
    public func verify(_ token: String, project: Project) throws(AuthError) -> Verified {
        let projectID = project.id
        let verified: VerifiedJWT
        do {
            verified = try JWT.verify(
                token,
                keys: { keyID in
                    keyID.flatMap { keys.verificationKey(projectID: projectID, keyID: $0) }
                },
                now: clock.nowSeconds()
            )
        } catch {
            if error == .expired { throw .tokenExpired }
            throw .invalidIDToken
        }
        let claims = verified.claims
        guard claims.iss == Self.issuer(projectID: projectID), claims.aud == [projectID],
            let subject = claims.sub, !subject.isEmpty, subject.utf8.count <= 128, let issuedAt = claims.iat
        else { throw .invalidIDToken }
        let authTime = (try? JSONValue.parse(verified.payload))?["auth_time"]?.int64Value ?? issuedAt
        return Verified(localID: subject, issuedAt: issuedAt, authTimeSeconds: authTime)
    }
}
