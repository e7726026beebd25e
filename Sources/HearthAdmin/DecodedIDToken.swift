public import Foundation
import HearthCrypto
import HearthWire

/// A verified Firebase ID token: its user and every claim of its payload.
public struct DecodedIDToken: Sendable, Hashable {
    /// The user's ID (`sub`).
    public let uid: String
    /// Every claim of the payload, custom claims included.
    public let claims: [String: ClaimValue]
    /// `https://securetoken.google.com/<projectID>`.
    public let issuer: String
    /// The project ID (`aud`).
    public let audience: String
    /// When the token was issued (`iat`).
    public let issuedAt: Date
    /// When the token stops being valid (`exp`).
    public let expiration: Date
    /// When the user signed in for the session the token belongs to (`auth_time`).
    public let authTime: Date
    /// The user's email address, if any.
    public var email: String? { claims["email"]?.stringValue }
    /// Whether the email address is verified.
    public var emailVerified: Bool { claims["email_verified"]?.boolValue ?? false }
    /// How the user signed in (`firebase.sign_in_provider`: `password`, …).
    public var signInProvider: String? { claims["firebase"]?["sign_in_provider"]?.stringValue }

    /// The start of every Firebase ID token's issuer.
    static let issuerPrefix = "https://securetoken.google.com/"

    /// The claims of a token whose signature has been checked, or `.malformed` /
    /// `.wrongProject` when they are not those of an ID token of `projectID`.
    init(verified: VerifiedJWT, projectID: String) throws(TokenVerificationError) {
        guard let claims = try? verified.decodeClaims([String: ClaimValue].self),
            let subject = verified.claims.sub, !subject.isEmpty, subject.utf8.count <= 128,
            let issuedAt = verified.claims.iat, let expiry = verified.claims.exp,
            let issuer = verified.claims.iss, let audience = verified.claims.aud, audience.count == 1
        else { throw .malformed }
        guard audience[0] == projectID, issuer == Self.issuerPrefix + projectID else {
            throw .wrongProject(expected: projectID, found: audience[0])
        }
        uid = subject
        self.claims = claims
        self.issuer = issuer
        self.audience = audience[0]
        self.issuedAt = Date(timeIntervalSince1970: TimeInterval(issuedAt))
        expiration = Date(timeIntervalSince1970: TimeInterval(expiry))
        authTime = Date(timeIntervalSince1970: claims["auth_time"]?.numberValue ?? TimeInterval(issuedAt))
    }
}

/// A verified installation auth token: the installation, its app and project, and its expiry.
public struct VerifiedInstallationToken: Sendable, Hashable {
    /// The installation ID (`fid`).
    public let fid: String
    /// The app the installation belongs to (`appId`).
    public let appID: String
    /// The project number, as a decimal string.
    public let projectNumber: String
    /// When the token stops being valid (`exp`).
    public let expiration: Date
    /// When the token was issued (`iat`), if it says.
    public let issuedAt: Date?

    /// The claims of a token whose signature has been checked, or `.malformed` when they lack
    /// an installation token's.
    init(verified: VerifiedJWT) throws(TokenVerificationError) {
        guard let claims = try? verified.decodeClaims([String: ClaimValue].self),
            let fid = claims["fid"]?.stringValue, InstallationID.isWellFormed(fid),
            let appID = claims["appId"]?.stringValue,
            let number = Self.projectNumber(in: claims),
            let expiry = verified.claims.exp
        else { throw .malformed }
        self.fid = fid
        self.appID = appID
        projectNumber = number
        expiration = Date(timeIntervalSince1970: TimeInterval(expiry))
        issuedAt = verified.claims.iat.map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// `projectNumber`, a JSON number in Firebase's tokens (a string is accepted too).
    static func projectNumber(in claims: [String: ClaimValue]) -> String? {
        switch claims["projectNumber"] {
        case .number(let value) where value >= 0 && value < 1e15 && value == value.rounded():
            String(Int64(value))
        case .string(let text) where !text.isEmpty && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber):
            text
        default: nil
        }
    }
}
