import HearthBase
import HearthCore
import HearthHTTP
import Synchronization

/// The public-key documents verifiers fetch, each rendered once per state of its key set and
/// answered as a fixed response while its `Cache-Control` stays the same.
///
/// A document may be cached for ``PublishedKeySet/cacheSeconds(nowMilliseconds:)``: the full
/// ``PublishedKeySet/maximumCacheSeconds`` until that long before the next scheduled change,
/// then the seconds left. The fixed response states the full lifetime; in the last stretch
/// before a change each answer states its own.
final class PublishedKeyDocuments: Sendable {
    private struct Rendered {
        let revision: PublishedKeySet.Revision
        let body: [UInt8]
        /// The answer with `max-age` the full lifetime, reusable until `fixedUntil` (Unix ms, exclusive).
        let fixed: Response
        let fixedUntil: Int64
    }

    private let rendered = Mutex<[String: Rendered]>([:])

    /// The answer for the document `name` of `set`, rendered by `render` only when the set has
    /// changed since the last answer.
    func response(
        _ name: String,
        of set: PublishedKeySet,
        nowMilliseconds now: Int64,
        render: (PublishedKeySet) throws -> [UInt8]
    ) throws -> Response {
        var current = rendered.withLock { $0[name] }
        if current?.revision != set.revision {
            let body = try render(set)
            let made = Rendered(
                revision: set.revision,
                body: body,
                fixed: Self.response(body, maxAge: PublishedKeySet.maximumCacheSeconds).fixed(),
                fixedUntil: set.fullCacheLifetimeEnds
            )
            rendered.withLock { $0[name] = made }
            current = made
        }
        guard let current else { preconditionFailure("a rendered document was just stored") }
        if now < current.fixedUntil { return current.fixed }
        return Self.response(current.body, maxAge: set.cacheSeconds(nowMilliseconds: now))
    }

    private static func response(_ body: [UInt8], maxAge: Int64) -> Response {
        var response = Response.json(bytes: body)
        response.headers.set("Cache-Control", "public, max-age=\(maxAge)")
        return response
    }
}
