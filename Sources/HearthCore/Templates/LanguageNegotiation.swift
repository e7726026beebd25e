import HearthBase
import Synchronization

/// What a request says about the language its email should be in, strongest first.
public struct LanguagePreferences: Sendable, Hashable {
    /// Asked for explicitly: the `X-Firebase-Locale` header or a `languageCode` field.
    public var explicit: String?
    /// The language stored on the user's account.
    public var stored: String?
    /// The request's `Accept-Language` header, as sent.
    public var acceptLanguage: String?

    public init(explicit: String? = nil, stored: String? = nil, acceptLanguage: String? = nil) {
        self.explicit = explicit
        self.stored = stored
        self.acceptLanguage = acceptLanguage
    }
}

/// Chooses the language of an email among the languages it exists in (BCP 47 tags).
///
/// The sources are tried in order — explicit, stored, each `Accept-Language` range by
/// falling q-value, the project default — and the first one that matches an available
/// language wins. A tag matches by RFC 4647 lookup (`it-CH` falls back to `it`,
/// `zh-Hant-TW` to `zh-Hant` then `zh`), then by primary language (`pt` finds `pt-BR`).
/// Nothing matching, English, else the first available language.
public enum LanguageNegotiation {
    public static func choose(
        _ preferences: LanguagePreferences,
        projectDefault: String?,
        available: [String]
    ) -> String {
        // Asked for by an available language's very tag: the first candidate, matched as is.
        // (An email composed in a language negotiated before comes here.)
        if let explicit = preferences.explicit, available.contains(explicit) { return explicit }
        // The same few combinations come again and again (one per browser language setting):
        // answer them from memory.
        let key = CacheKey(preferences: preferences, projectDefault: projectDefault, available: available)
        if let known = cache.withLock({ $0[key] }) { return known }
        let chosen = negotiate(preferences, projectDefault: projectDefault, available: available)
        cache.withLock { cache in
            if cache.count >= 4_096 { cache.removeAll(keepingCapacity: true) }
            cache[key] = chosen
        }
        return chosen
    }

    private struct CacheKey: Hashable {
        let preferences: LanguagePreferences
        let projectDefault: String?
        let available: [String]
    }

    private static let cache = Mutex<[CacheKey: String]>([:])

    private static func negotiate(
        _ preferences: LanguagePreferences,
        projectDefault: String?,
        available: [String]
    ) -> String {
        var candidates: [String] = []
        if let explicit = preferences.explicit { candidates.append(explicit) }
        if let stored = preferences.stored { candidates.append(stored) }
        if let header = preferences.acceptLanguage { candidates += acceptLanguageRanges(header) }
        if let projectDefault { candidates.append(projectDefault) }
        for candidate in candidates {
            if let match = match(candidate, in: available) { return match }
        }
        return match("en", in: available) ?? available.sorted().first ?? "en"
    }

    /// The language ranges of an `Accept-Language` header, highest q-value first (ties keep
    /// their order), without `*`, ranges with q=0 and malformed entries.
    public static func acceptLanguageRanges(_ header: String) -> [String] {
        var ranges: [(tag: String, quality: Double, position: Int)] = []
        for (position, entry) in header.split(separator: ",").enumerated() {
            let parts = entry.split(separator: ";").map { $0.trimmingASCIIWhitespace() }
            guard let tag = parts.first, tag != "*", canonical(tag) != nil else { continue }
            var quality = 1.0
            var isValid = true
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingASCIIWhitespace() }
                guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
                guard let value = Double(pair[1]), (0...1).contains(value) else {
                    isValid = false
                    break
                }
                quality = value
            }
            if isValid && quality > 0 { ranges.append((tag, quality, position)) }
        }
        return ranges.sorted { ($0.quality, -$0.position) > ($1.quality, -$1.position) }.map(\.tag)
    }

    /// The available tag that serves `tag`, or `nil`.
    public static func match(_ tag: String, in available: [String]) -> String? {
        guard let wanted = canonical(tag) else { return nil }
        let offered = available.compactMap { tag in canonical(tag).map { (tag, $0.lowercased()) } }
        var subtags = wanted.lowercased().split(separator: "-").map(String.init)
        while !subtags.isEmpty {
            let prefix = subtags.joined(separator: "-")
            if let hit = offered.first(where: { $0.1 == prefix }) { return hit.0 }
            subtags.removeLast()
            // A singleton (`x`, `u`) introduces an extension and is never a tag's last subtag.
            if subtags.last?.count == 1 { subtags.removeLast() }
        }
        let language = wanted.lowercased().prefix { $0 != "-" }
        return offered.filter { $0.1.prefix { $0 != "-" } == language }.min { $0.1 < $1.1 }?.0
    }

    /// The tag in its usual case (`pt-BR`, `zh-Hant-TW`), with `_` read as `-`; `nil` when it
    /// is not a well-formed language tag.
    public static func canonical(_ tag: String) -> String? {
        let subtags = tag.replacing("_", with: "-").split(separator: "-", omittingEmptySubsequences: false)
        guard let language = subtags.first, (2...8).contains(language.count), language.allSatisfy(\.isASCIILetter)
        else { return nil }
        var result = [language.lowercased()]
        for subtag in subtags.dropFirst() {
            guard (1...8).contains(subtag.count), subtag.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit }) else {
                return nil
            }
            switch subtag.count {
            case 2 where subtag.allSatisfy(\.isASCIILetter): result.append(subtag.uppercased())
            case 4 where subtag.allSatisfy(\.isASCIILetter):
                result.append(subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased())
            default: result.append(subtag.lowercased())
            }
        }
        return result.joined(separator: "-")
    }
}

extension Character {
    var isASCIILetter: Bool { isASCII && isLetter }
}
