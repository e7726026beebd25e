import HearthBase

/// The reverse proxies whose word on a client's address counts. A request whose TCP peer is
/// one of them is counted as coming from the address its `X-Forwarded-For` names: the
/// rightmost entry that is not itself a trusted proxy. Entries to the left of that one were
/// written by the client and prove nothing, so they are never read; a request from any other
/// peer keeps the peer's address whatever its headers say.
public struct TrustedProxies: Sendable, Equatable {
    /// An address and how many of its leading bits an address must share to be in the range.
    struct Range: Sendable, Equatable {
        let bytes: [UInt8]
        let prefixLength: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            let whole = prefixLength / 8
            guard address[..<whole] == bytes[..<whole] else { return false }
            let rest = prefixLength % 8
            guard rest > 0 else { return true }
            let mask = UInt8(0xFF) << (8 - rest)
            return address[whole] & mask == bytes[whole] & mask
        }
    }

    private let ranges: [Range]

    /// No proxy is trusted: every request's client is its TCP peer.
    public static let none = TrustedProxies(ranges: [])

    private init(ranges: [Range]) { self.ranges = ranges }

    /// Reads addresses and ranges — `10.0.0.7`, `10.0.0.0/8`, `::1`, `fd00::/8` — separated by
    /// commas. Throws a message naming the first entry that is none of these.
    public init(parsing list: String) throws(TrustedProxies.InvalidEntry) {
        var ranges: [Range] = []
        for entry in list.split(separator: ",") {
            let text = entry.trimmingASCIIWhitespace()
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let bytes = IPAddress.parse(parts[0]) else { throw InvalidEntry(entry: text) }
            // An IPv4-mapped IPv6 address reads as IPv4, so its prefix would count the wrong bits.
            guard bytes.count == 16 || !parts[0].contains(":") else { throw InvalidEntry(entry: text) }
            var prefixLength = bytes.count * 8
            if parts.count == 2 {
                guard let length = Int(parts[1]), (0...prefixLength).contains(length) else {
                    throw InvalidEntry(entry: text)
                }
                prefixLength = length
            }
            ranges.append(Range(bytes: bytes, prefixLength: prefixLength))
        }
        guard !ranges.isEmpty else { throw InvalidEntry(entry: list) }
        self.ranges = ranges
    }

    public struct InvalidEntry: Error, Equatable {
        public let entry: String
    }

    public var isEmpty: Bool { ranges.isEmpty }

    /// Whether a range holds every IPv4 or every IPv6 address (`0.0.0.0/0`, `::/0`).
    public var trustsEveryAddress: Bool { ranges.contains { $0.prefixLength == 0 } }

    /// Whether `address` (in the form ``IPAddress/describe(_:)`` gives) is a trusted proxy's.
    public func contains(_ address: some StringProtocol) -> Bool {
        guard !ranges.isEmpty, let bytes = IPAddress.parse(address) else { return false }
        return contains(bytes: bytes)
    }

    private func contains(bytes: [UInt8]) -> Bool {
        ranges.contains { $0.contains(bytes) }
    }

    /// The client's address of a request from `peer` that carried these `X-Forwarded-For`
    /// values (one per header line, in the order received): `peer` unless it is a trusted
    /// proxy; else, reading the entries from the right, the first that is not a trusted
    /// proxy's. An entry that is not an address (or `host:port`, `[v6]:port`) stops the
    /// reading at the last address read, as does running out of entries.
    public func clientAddress(peer: String, forwardedFor values: [String]) -> String {
        guard contains(peer) else { return peer }
        var client = peer
        for value in values.reversed() {
            for entry in value.split(separator: ",").reversed() {
                guard let bytes = IPAddress.parse(Self.withoutPort(entry.trimmingASCIIWhitespace())) else {
                    return client
                }
                client = IPAddress.describe(bytes)
                if !contains(bytes: bytes) { return client }
            }
        }
        return client
    }

    /// `192.0.2.1:443` → `192.0.2.1`, `[2001:db8::1]:443` or `[2001:db8::1]` → `2001:db8::1`;
    /// anything else as it is.
    private static func withoutPort(_ entry: String) -> Substring {
        if entry.first == "[", let close = entry.firstIndex(of: "]") {
            return entry[entry.index(after: entry.startIndex)..<close]
        }
        if let colon = entry.firstIndex(of: ":"), entry.lastIndex(of: ":") == colon {
            return entry[..<colon]
        }
        return entry[...]
    }
}
