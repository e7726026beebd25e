import Foundation

/// Firebase installation IDs (FIDs): 22 characters of URL-safe base64 holding 132 bits whose
/// first four are `0111` (so the first character is `c`, `d`, `e` or `f`) and whose other 128
/// are random, as every Firebase SDK makes them.
public enum InstallationID {
    /// The length of a well-formed FID in characters.
    public static let length = 22

    /// Whether `text` is a well-formed FID (`^[cdef][A-Za-z0-9_-]{21}$`).
    public static func isWellFormed(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == length, let first = utf8.first else { return false }
        guard first >= UInt8(ascii: "c") && first <= UInt8(ascii: "f") else { return false }
        return utf8.allSatisfy(isURLSafeBase64)
    }

    /// A fresh FID from the system's cryptographically secure random source.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return make(fromRandom: (0..<17).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The FID made from 17 random bytes: the header nibble `0111` replaces the first byte's
    /// high half, the bytes are base64url-encoded and the first 22 characters kept.
    public static func make(fromRandom bytes: [UInt8]) -> String {
        precondition(bytes.count == 17, "an FID is made from 17 random bytes")
        var bytes = bytes
        bytes[0] = 0b0111_0000 | (bytes[0] & 0x0F)
        return String(Base64URL.encode(bytes).prefix(length))
    }

    private static func isURLSafeBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}

/// Unpadded URL-safe base64 (RFC 4648 §5), as FIDs and JWKs use it.
enum Base64URL {
    /// `bytes` encoded without padding.
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// The bytes `text` encodes (padding optional), or nil when it is not base64url.
    static func decode(_ text: String) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}

/// The `Authorization` header of the installation calls made with a refresh token:
/// `FIS_v2 <refreshToken>`. The server reads it with HearthCore's `InstallationRefreshToken`.
public enum FISAuthorization {
    /// The scheme name, also the `authVersion` of a create request.
    public static let scheme = "FIS_v2"

    /// The header value carrying `refreshToken`.
    public static func header(refreshToken: String) -> String { "\(scheme) \(refreshToken)" }
}

/// Body of `POST /v1/projects/{project}/installations` (header `x-goog-api-key`).
public struct CreateInstallationRequest: Sendable, Codable, Equatable {
    /// The FID the client made; the server keeps a well-formed one and replaces anything else.
    public var fid: String
    /// The Google app ID (`1:<number>:<platform>:<hex>`).
    public var appID: String
    /// Always `FIS_v2`.
    public var authVersion: String
    /// The SDK's version string.
    public var sdkVersion: String

    /// Makes the value from its fields.
    public init(fid: String, appID: String, authVersion: String = FISAuthorization.scheme, sdkVersion: String) {
        self.fid = fid
        self.appID = appID
        self.authVersion = authVersion
        self.sdkVersion = sdkVersion
    }

    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable {
        case fid
        case appID = "appId"
        case authVersion, sdkVersion
    }
}

/// An installation auth token with its lifetime as the wire spells it (`"604800s"`).
public struct InstallationAuthToken: Sendable, Codable, Equatable {
    /// The ES256 JWT.
    public var token: String
    /// The lifetime, a decimal number of seconds followed by `s`.
    public var expiresIn: String

    /// Makes the value from its fields.
    public init(token: String, expiresIn: String) {
        self.token = token
        self.expiresIn = expiresIn
    }

    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable { case token, expiresIn }

    /// `expiresIn` as seconds, or nil when it is not `<number>s`.
    public var expiresInSeconds: Double? { WireDuration.seconds(expiresIn) }
}

/// The 200 answer to a create: the registered installation. Its `fid` may differ from the
/// request's when the server replaced it; clients adopt the answered one.
public struct CreateInstallationResponse: Sendable, Codable, Equatable {
    /// `projects/<number>/installations/<fid>`.
    public var name: String
    /// The registered FID.
    public var fid: String
    /// The opaque refresh token sent as `FIS_v2 <refreshToken>` on later calls.
    public var refreshToken: String
    /// The first auth token.
    public var authToken: InstallationAuthToken

    /// Makes the value from its fields.
    public init(name: String, fid: String, refreshToken: String, authToken: InstallationAuthToken) {
        self.name = name
        self.fid = fid
        self.refreshToken = refreshToken
        self.authToken = authToken
    }

    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable { case name, fid, refreshToken, authToken }
}

/// Body of `POST .../installations/{fid}/authTokens:generate`.
public struct GenerateAuthTokenRequest: Sendable, Codable, Equatable {
    /// What the SDK says about itself.
    public struct Installation: Sendable, Codable, Equatable {
        /// The SDK's version string.
        public var sdkVersion: String?
        /// The Google app ID (`appId`).
        public var appID: String?
        /// Makes the value from its fields.
        public init(sdkVersion: String?, appID: String?) {
            self.sdkVersion = sdkVersion
            self.appID = appID
        }
        /// The wire field names.
        public enum CodingKeys: String, CodingKey, Sendable {
            case sdkVersion
            case appID = "appId"
        }
    }
    /// What the SDK says about itself.
    public var installation: Installation

    /// Makes the value from its fields.
    public init(installation: Installation) { self.installation = installation }

    /// The wire field names.
    public enum CodingKeys: String, CodingKey, Sendable { case installation }
}

/// The answer to `authTokens:generate`: `{token, expiresIn}`.
public typealias GenerateAuthTokenResponse = InstallationAuthToken

/// The answer to `DELETE .../installations/{fid}` and the admin deletion
/// `DELETE /v1/project/{p}/instanceId/{fid}`: an empty object.
public struct DeleteInstallationResponse: Sendable, Codable, Equatable {
    /// Makes the value from its fields.
    public init() {}
}

/// Paths of the installation calls.
public enum InstallationsPath {
    /// The create path for a project ID or number.
    public static func create(project: String) -> String { "/v1/projects/\(project)/installations" }
    /// The path of one installation (client delete).
    public static func installation(project: String, fid: String) -> String {
        "/v1/projects/\(project)/installations/\(fid)"
    }
    /// The token-generation path.
    public static func generateAuthToken(project: String, fid: String) -> String {
        "/v1/projects/\(project)/installations/\(fid)/authTokens:generate"
    }
    /// The admin deletion path the Admin SDKs use.
    public static func adminDelete(project: String, fid: String) -> String {
        "/v1/project/\(project)/instanceId/\(fid)"
    }
}

/// Google's duration strings: a decimal number of seconds followed by `s`.
public enum WireDuration {
    /// `seconds` spelled as the wire does (`"604800s"`).
    public static func string(seconds: Int64) -> String { "\(seconds)s" }

    /// The number of seconds in `text`, or nil when it is not `<number>s`.
    public static func seconds(_ text: String) -> Double? {
        guard text.hasSuffix("s") else { return nil }
        return Double(text.dropLast())
    }
}
