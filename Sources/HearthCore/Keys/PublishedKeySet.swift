public import HearthCrypto

/// Public keys as a verifier sees them: the keys whose signatures may be presented now, when
/// each was published and until when, and how long the set may be cached.
public struct PublishedKeySet: Sendable {
    /// One published public key.
    public struct Key: Sendable, Hashable {
        public let keyID: String
        public let projectID: String
        public let purpose: KeyRing.Purpose
        /// The public key with `kid`, `alg` and `use` set.
        public let jwk: JSONWebKey
        /// Unix seconds: when the key was made, and so first published.
        public let publishedSince: Int64
        /// Unix seconds: when a retired key leaves the set; `nil` while the key signs (its end
        /// is not known until it is rotated out).
        public let publishedUntil: Int64?
    }

    /// What identifies one state of a set: a key joining, leaving or getting an end to its
    /// window changes it, and nothing else does.
    public struct Revision: Sendable, Hashable {
        fileprivate let windows: [KeyWindow]
    }

    fileprivate struct KeyWindow: Sendable, Hashable {
        let keyID: String
        let publishedUntil: Int64?
    }

    /// Oldest first.
    public let keys: [Key]
    public let revision: Revision

    init(keys: [Key]) {
        self.keys = keys
        self.revision = Self.revision(keyIDs: keys.map(\.keyID), publishedUntil: keys.map(\.publishedUntil))
    }

    static func revision(keyIDs: [String], publishedUntil: [Int64?]) -> Revision {
        Revision(windows: zip(keyIDs, publishedUntil).map { KeyWindow(keyID: $0, publishedUntil: $1) })
    }

    /// The longest a verifier may cache this set: an unforeseen rotation can add a key at any
    /// moment; a retired key's window ending removes one at a known instant.
    public static let maximumCacheSeconds: Int64 = 300

    /// Unix seconds: the next instant the set changes by itself (the first window to end).
    public var nextScheduledChange: Int64? {
        keys.compactMap(\.publishedUntil).min()
    }

    /// How long, from `nowMilliseconds`, a verifier may cache the set: ``maximumCacheSeconds``,
    /// or the whole seconds left until the next scheduled change when that comes sooner.
    public func cacheSeconds(nowMilliseconds: Int64) -> Int64 {
        guard let change = nextScheduledChange else { return Self.maximumCacheSeconds }
        let left = (change * 1_000 - nowMilliseconds) / 1_000
        return max(0, min(Self.maximumCacheSeconds, left))
    }

    /// Until when (Unix milliseconds, exclusive) ``cacheSeconds(nowMilliseconds:)`` stays
    /// ``maximumCacheSeconds``, so an answer that states it may be reused unchanged.
    public var fullCacheLifetimeEnds: Int64 {
        guard let change = nextScheduledChange else { return Int64.max }
        return (change - Self.maximumCacheSeconds) * 1_000 + 1
    }
}
