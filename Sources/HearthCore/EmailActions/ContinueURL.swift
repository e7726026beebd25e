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
        guard text.utf8.count <= 4096 else { throw .forbiddenCharacter }
        for scalar in text.unicodeScalars where scalar.value <= 0x20 || scalar.value == 0x7F || scalar == "\\" {
            throw .forbiddenCharacter
        }
        guard let colon = text.firstIndex(of: ":") else { throw .notAbsolute }
        let scheme = text[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw scheme.isEmpty || !scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
                ? .notAbsolute : .unsupportedScheme
        }
        let rest = text[text.index(after: colon)...]
        guard rest.hasPrefix("//") else { throw .notAbsolute }
        let authorityAndMore = rest.dropFirst(2)
        let authorityEnd =
            authorityAndMore.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? authorityAndMore.endIndex
        let authority = authorityAndMore[..<authorityEnd]
        guard !authority.contains("@") else { throw .userInfo }
        guard !authority.contains("%") else { throw .badHost }

        var hostPart = authority[...]
        var port: Int?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .badHost }
            hostPart = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .badHost }
                port = try Self.port(after.dropFirst())
            }
        } else if let portColon = authority.lastIndex(of: ":") {
            hostPart = authority[..<portColon]
            port = try Self.port(authority[authority.index(after: portColon)...])
        }
        guard let host = HostName.canonical(hostPart) else { throw .badHost }
        self.scheme = scheme
        self.host = host
        self.port = port
        self.text = text
    }

    private static func port(_ digits: Substring) throws(ParseError) -> Int? {
        if digits.isEmpty { return nil }
        guard digits.count <= 5, digits.allSatisfy(\.isASCIIDigit), let value = Int(digits), value <= 65_535 else {
            throw .badPort
        }
        return value
    }
}
