/// A URL as Hearth prints it — in logs, error messages and command output — with its secrets
/// hidden: the user-info (`user:password@`) becomes `***@`, and the value of every query
/// parameter whose name says it carries a secret (`password`, `token`, `key`, `code`, …)
/// becomes `***`. Database, SMTP and webhook URLs carry credentials this way; everything else
/// of the URL (scheme, host, port, path) stays, so the line still says where it points.
/// Text that is not `scheme://…` is printed as it is.
public struct RedactedURL: CustomStringConvertible, Sendable {
    public let description: String

    public init(_ url: String) {
        description = Self.redact(url)
    }

    /// Query parameter names (compared case-insensitively, `-` and `_` ignored) whose values
    /// are secrets.
    static let secretParameters: Set<String> = [
        "password", "pass", "passwd", "pwd", "secret", "token", "accesstoken", "refreshtoken", "idtoken",
        "key", "apikey", "code", "oobcode", "sig", "signature", "auth", "authorization", "credential",
    ]

    private static func redact(_ url: String) -> String {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return url }
        let authorityStart = url.index(colon, offsetBy: 3)
        let rest = url[authorityStart...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        var result = String(url[..<authorityStart])
        let authority = url[authorityStart..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            result += "***" + authority[at...]
        } else {
            result += authority
        }
        let tail = url[authorityEnd...]
        guard let queryStart = tail.firstIndex(of: "?") else { return result + tail }
        let fragmentStart = tail[queryStart...].firstIndex(of: "#") ?? tail.endIndex
        result += tail[..<tail.index(after: queryStart)]
        let parameters = tail[tail.index(after: queryStart)..<fragmentStart].split(
            separator: "&",
            omittingEmptySubsequences: false
        )
        result += parameters.map { parameter -> String in
            guard let equals = parameter.firstIndex(of: "=") else { return String(parameter) }
            let name = parameter[..<equals].lowercased().filter { $0 != "-" && $0 != "_" }
            return secretParameters.contains(name) ? parameter[...equals] + "***" : String(parameter)
        }.joined(separator: "&")
        return result + tail[fragmentStart...]
    }
}
