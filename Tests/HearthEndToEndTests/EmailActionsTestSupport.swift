import Foundation
import HearthTestSupport
import Testing

/// Shared by the email-action suites: a server with the seed and `limits-project` (tiny send
/// limits, enumeration protection off), and reading pending codes like a developer would.
enum EmailActions {
    static let limitsAPIKey = "limits-api-key"

    static func server(_ arguments: [String] = []) throws -> HearthServerProcess {
        // Always the same text: one file serves every test (written atomically).
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-oob-limits-project.json")
        let document = """
            {"projects": [{"projectId": "limits-project", "projectNumber": "300000000000", "apiKeys": ["limits-api-key"],
              "apps": [{"appId": "1:300000000000:web:abc", "platform": "web"}],
              "authorizedDomains": ["localhost", "app.example.org"],
              "settings": {"emailEnumerationProtection": false, "emailsPerRecipientPerHour": 2,
                           "emailsPerClientAddressPerHour": 4}}]}
            """
        try Data(document.utf8).write(to: path, options: .atomic)
        return try HearthServerProcess(arguments: ["--test-clock", "--config", path.path, "--dev"] + arguments)
    }
}

/// One entry of `GET /emulator/v1/projects/{p}/oobCodes`.
struct PendingCode {
    var email: String
    var requestType: String
    var oobCode: String
    var oobLink: String
    var newEmail: String?
}

extension TestHTTPClient {
    /// The pending codes of the seed project, newest last.
    func pendingCodes() throws -> [PendingCode] {
        let response = try request("GET", "/emulator/v1/projects/demo-project/oobCodes")
        #expect(response.status == 200)
        return (response.json["oobCodes"] as? [[String: Any]] ?? []).map {
            PendingCode(
                email: $0["email"] as? String ?? "",
                requestType: $0["requestType"] as? String ?? "",
                oobCode: $0["oobCode"] as? String ?? "",
                oobLink: $0["oobLink"] as? String ?? "",
                newEmail: $0["newEmail"] as? String
            )
        }
    }

    /// The newest pending code of `type` for `email`.
    func pendingCode(_ type: String, for email: String) throws -> PendingCode? {
        try pendingCodes().last { $0.requestType == type && $0.email == email }
    }

    /// `accounts:sendOobCode` with the seed's API key.
    @discardableResult
    func sendOobCode(_ body: [String: Any], key: String = Accounts.apiKey, headers: [(String, String)] = []) throws
        -> TestResponse
    {
        try call("accounts:sendOobCode", body, key: key, headers: headers)
    }
}

/// The query parameters of a URL, percent-decoded once.
func queryParameters(_ link: String) -> [String: String] {
    guard let question = link.firstIndex(of: "?") else { return [:] }
    var result: [String: String] = [:]
    for pair in link[link.index(after: question)...].split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        result[parts[0]] = parts.count > 1 ? parts[1].removingPercentEncoding : ""
    }
    return result
}

/// The code of an action link (plain or wrapped in `/__/auth/links?link=`).
func actionCode(in link: String) -> String? {
    let parameters = queryParameters(link)
    if let inner = parameters["link"] { return queryParameters(inner)["oobCode"] }
    return parameters["oobCode"]
}
