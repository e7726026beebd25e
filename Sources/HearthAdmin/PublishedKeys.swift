import Foundation
import HearthCrypto
import HearthWire

/// The project's published signing keys (`GET /v1/projects/{p}/jwks`: ID-token and
/// installation keys), kept for as long as the answer's `Cache-Control: max-age` allows.
///
/// One fetch is in flight at a time, whoever asks. A token naming a key the cache lacks makes
/// it fetch again at once (a key published since), but such refetches are spaced by
/// ``unknownKeyRefetchInterval``, so tokens with made-up key IDs cannot make every
/// verification a request to Hearth.
actor PublishedKeys {
    /// A verification key and the kind of token it signs.
    struct Key: Sendable {
        let verification: JWT.VerificationKey
        let purpose: TokenPurpose
    }

    typealias Snapshot = [String: Key]

    /// The least time between two fetches made because of an unknown key ID.
    static let unknownKeyRefetchInterval: TimeInterval = 30

    private let connection: AdminConnection
    private var keys: Snapshot = [:]
    private var validUntil = Date.distantPast
    private var lastUnknownKeyFetch: Date?
    private var fetching: Task<(Snapshot, Date), any Error>?
    private var projectNumber: String?

    init(connection: AdminConnection) {
        self.connection = connection
    }

    /// The keys, fetched when the cached answer's lifetime is over.
    func current() async throws -> Snapshot {
        if connection.now() < validUntil { return keys }
        return try await fetch()
    }

    /// The keys after a token named `keyID`, which an earlier snapshot lacked: the cached keys
    /// if they have it by now, else freshly fetched ones; `nil` when a refetch for an unknown
    /// key was made too recently.
    func refreshed(forUnknownKey keyID: String?) async throws -> Snapshot? {
        if let keyID, keys[keyID] != nil, connection.now() < validUntil { return keys }
        let now = connection.now()
        if let last = lastUnknownKeyFetch, now.timeIntervalSince(last) < Self.unknownKeyRefetchInterval,
            now >= last
        {
            return nil
        }
        lastUnknownKeyFetch = now
        return try await fetch()
    }

    /// The project's number, asked of Hearth once (`GET /v1/projects`).
    func number() async throws -> String {
        if let projectNumber { return projectNumber }
        let config: ProjectConfigResponse = try await connection.call(
            "GET",
            AdminPath.projectConfig,
            query: [URLQueryItem(name: "targetProjectId", value: connection.projectID)]
        )
        projectNumber = config.projectID
        return config.projectID
    }

    private func fetch() async throws -> Snapshot {
        if let fetching { return try await fetching.value.0 }
        let connection = connection
        let task = Task { try await Self.load(connection) }
        fetching = task
        defer { fetching = nil }
        let (snapshot, until) = try await task.value
        keys = snapshot
        validUntil = until
        return snapshot
    }

    private static func load(_ connection: AdminConnection) async throws -> (Snapshot, Date) {
        let response = try await connection.send(
            "GET",
            AdminPath.projectJWKS(project: connection.projectID),
            authenticated: false
        )
        let set = try connection.decode(JWKSet.self, from: response)
        var snapshot: Snapshot = [:]
        for key in set.keys {
            guard let keyID = key.kid, let purpose = purpose(of: key) else { continue }
            let jwk = JSONWebKey(
                kty: key.kty,
                crv: key.crv,
                x: key.x,
                y: key.y,
                n: key.n,
                e: key.e,
                kid: key.kid,
                alg: key.alg,
                use: key.use
            )
            // A key this SDK cannot use (another type or curve) verifies nothing: it is left out.
            guard let verification = try? JWT.VerificationKey(jwk: jwk) else { continue }
            snapshot[keyID] = Key(verification: verification, purpose: purpose)
        }
        let maxAge = maxAge(response.headers["cache-control"])
        return (snapshot, connection.now().addingTimeInterval(TimeInterval(maxAge)))
    }

    /// ID tokens are RS256 and installation tokens ES256, as Hearth and Firebase sign them.
    private static func purpose(of key: JWK) -> TokenPurpose? {
        switch key.alg ?? (key.kty == "RSA" ? RS256.algorithm : key.kty == "EC" ? ES256.algorithm : "") {
        case RS256.algorithm: .idToken
        case ES256.algorithm: .installationToken
        default: nil
        }
    }

    /// The `max-age` of a `Cache-Control` value in seconds; 0 (do not keep) without one.
    static func maxAge(_ header: String?) -> Int {
        guard let header else { return 0 }
        for directive in header.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0].lowercased() == "max-age", let seconds = Int(parts[1]), seconds >= 0 {
                return seconds
            }
            if parts.first?.lowercased() == "no-store" || parts.first?.lowercased() == "no-cache" { return 0 }
        }
        return 0
    }
}
