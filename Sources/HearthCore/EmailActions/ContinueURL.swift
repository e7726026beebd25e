/// An absolute `http`/`https` URL taken apart just enough to decide where it leads. The
/// parser is strict on purpose: anything a browser might read differently from us (user-info,
/// backslashes, spaces, control characters, percent-encoded hosts, a missing `//`) is refused
/// instead of being guessed at, because a continue URL is where Hearth sends people.
public struct ContinueURL: Sendable, Equatable {
    /// `http` or `https`, lower-cased.
    public let scheme: String
    /// The canonical host (see `HostName`).
    public let host: String
    public let port: Int?
    /// The URL as given.
    public let text: String

    public enum ParseError: Error, Sendable, Equatable {
        case notAbsolute
        case unsupportedScheme
        case userInfo
        case badHost
        case badPort
        case forbiddenCharacter
    }

    public init(_ text: String) throws(ParseError) {
        // Every character the parser looks for is ASCII, so it works on UTF-8 bytes; a cut
        // at an ASCII byte never splits a character's encoding.
        let bytes = text.utf8
        guard bytes.count <= 4096 else { throw .forbiddenCharacter }
        if bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }) {
            throw .forbiddenCharacter
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { throw .notAbsolute }
        let scheme = text[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw scheme.isEmpty || !scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
                ? .notAbsolute : .unsupportedScheme
        }
        let rest = text[bytes.index(after: colon)...]
        guard rest.utf8.starts(with: "//".utf8) else { throw .notAbsolute }
        let authorityAndMore = rest[rest.utf8.index(rest.startIndex, offsetBy: 2)...]
        let authorityEnd =
            authorityAndMore.utf8.firstIndex(where: {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            }) ?? authorityAndMore.endIndex
        let authority = authorityAndMore[..<authorityEnd]
        guard !authority.utf8.contains(UInt8(ascii: "@")) else { throw .userInfo }
        guard !authority.utf8.contains(UInt8(ascii: "%")) else { throw .badHost }

        var hostPart = authority[...]
        var port: Int?
        if authority.utf8.first == UInt8(ascii: "[") {
            guard let close = authority.utf8.firstIndex(of: UInt8(ascii: "]")) else { throw .badHost }
            let afterClose = authority.utf8.index(after: close)
            hostPart = authority[..<afterClose]
            let after = authority[afterClose...]
            if !after.isEmpty {
                guard after.utf8.first == UInt8(ascii: ":") else { throw .badHost }
                port = try Self.port(after[after.utf8.index(after: after.startIndex)...])
            }
        } else if let portColon = authority.utf8.lastIndex(of: UInt8(ascii: ":")) {
            hostPart = authority[..<portColon]
            port = try Self.port(authority[authority.utf8.index(after: portColon)...])
        }
        guard let host = HostName.canonical(hostPart) else { throw .badHost }
        self.scheme = scheme
        self.host = host
        self.port = port
        self.text = text
    }

    private static func port(_ digits: Substring) throws(ParseError) -> Int? {
        if digits.isEmpty { return nil }
        guard digits.utf8.count <= 5, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int(digits),
            value <= 65_535
        else {
            throw .badPort
        }
        return value
    }
}
