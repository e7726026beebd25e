import HearthBase
import HearthCore

@testable import HearthHTTP

/// Steps of the hosted-page tests: codes made through the admin API, the action page opened
/// and its form sent as a browser sends it.
extension TestApplication {
    /// The seed's continue URL host (an authorized domain).
    static let continueURL = "http://localhost:5000/after?from=mail"

    /// A code of `requestType` made by the admin API (`returnOobLink`), for `email`.
    func code(
        _ requestType: String,
        email: String,
        newEmail: String? = nil,
        continueURL: String? = TestApplication.continueURL,
        handledInApp: Bool = false
    ) throws -> String {
        var body: JSONObject = ["requestType": .string(requestType), "email": .string(email), "returnOobLink": true]
        if let newEmail { body["newEmail"] = .string(newEmail) }
        if let continueURL { body["continueUrl"] = .string(continueURL) }
        if handledInApp { body["canHandleCodeInApp"] = true }
        let answer = admin(.post, "/v1/projects/\(Self.projectID)/accounts:sendOobCode", .object(body))
        guard answer.status == 200, let code = answer.json["oobCode"]?.stringValue else {
            throw TestFailure("sendOobCode answered \(answer.status): \(answer.text)")
        }
        return code
    }

    /// The newest code the development outbox lists for `email` of `requestType` (codes Hearth
    /// emails by itself, such as the recover-email code of an email change).
    func emailedCode(_ requestType: String, to email: String) throws -> String {
        let listed = send(.get, "/emulator/v1/projects/\(Self.projectID)/oobCodes").json["oobCodes"]?.arrayValue ?? []
        guard
            let entry = listed.last(where: {
                $0["requestType"]?.stringValue == requestType && $0["email"]?.stringValue == email
            }), let code = entry["oobCode"]?.stringValue
        else { throw TestFailure("no \(requestType) code for \(email) in \(listed)") }
        return code
    }

    /// `/__/auth/action?…` for a code, as the emailed link has it.
    static func actionTarget(
        mode: String,
        code: String,
        apiKey: String = TestApplication.apiKey,
        continueURL: String? = TestApplication.continueURL,
        language: String? = nil
    ) -> String {
        var items = [("mode", mode), ("oobCode", code), ("apiKey", apiKey)]
        if let continueURL { items.append(("continueUrl", continueURL)) }
        if let language { items.append(("lang", language)) }
        return "/__/auth/action?" + formEncoded(items)
    }

    /// `GET` (or `HEAD`) of a page.
    func page(_ target: String, method: HTTPMethod = .get, headers: [(String, String)] = []) -> PageAnswer {
        PageAnswer(send(method, target, headers: headers))
    }

    /// `POST /__/auth/action` with the form fields of `form` (a page that shows the action
    /// form), changed by `fields` (a `nil` value removes the field).
    func submit(_ form: PageAnswer, _ fields: [String: String?] = [:]) throws -> PageAnswer {
        var items = form.hiddenFields
        guard !items.isEmpty else { throw TestFailure("the page has no form: \(form.text)") }
        for (name, value) in fields {
            items.removeAll { $0.0 == name }
            if let value { items.append((name, value)) }
        }
        return post(items)
    }

    /// `POST /__/auth/action` with exactly `items`.
    func post(_ items: [(String, String)]) -> PageAnswer {
        PageAnswer(
            send(
                .post,
                "/__/auth/action",
                rawBody: Array(Self.formEncoded(items).utf8),
                headers: [("Content-Type", "application/x-www-form-urlencoded")]
            )
        )
    }

    static func formEncoded(_ items: [(String, String)]) -> String {
        items.map { "\(formEscaped($0.0))=\(formEscaped($0.1))" }.joined(separator: "&")
    }

    private static func formEscaped(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80 && (character.isLetter || character.isNumber || "-._~".contains(character)) {
                output.append(character)
            } else {
                output += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return output
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

/// A hosted page's answer, read through the DOM contract's hooks.
struct PageAnswer {
    let answer: TestAnswer

    init(_ answer: TestAnswer) { self.answer = answer }

    var status: Int { answer.status }
    var text: String { answer.text }
    func header(_ name: String) -> String? { answer.header(name) }

    /// `<main>`'s `data-outcome`, `data-page` and `data-mode`.
    var outcome: String? { mainAttribute("data-outcome") }
    var pageKind: String? { mainAttribute("data-page") }
    var mode: String? { mainAttribute("data-mode") }

    private func mainAttribute(_ name: String) -> String? {
        guard let main = text.firstMatch(of: /<main[^>]*>/) else { return nil }
        return Self.attribute(name, in: String(main.output))
    }

    /// The root element's `lang` and `dir`.
    var language: String? {
        text.firstMatch(of: /<html[^>]*>/).flatMap { Self.attribute("lang", in: String($0.output)) }
    }
    var direction: String? {
        text.firstMatch(of: /<html[^>]*>/).flatMap { Self.attribute("dir", in: String($0.output)) }
    }

    /// The form's hidden fields, in order, unescaped.
    var hiddenFields: [(String, String)] {
        text.matches(of: /<input type="hidden" name="([^"]*)" value="([^"]*)">/).map {
            (String($0.output.1), Self.unescaped(String($0.output.2)))
        }
    }

    func hidden(_ name: String) -> String? { hiddenFields.first { $0.0 == name }?.1 }

    /// The `href` of the element with `id`.
    func href(id: String) -> String? {
        guard let element = text.firstMatch(of: try! Regex("<a id=\"\(id)\"[^>]*>")) else { return nil }
        return Self.attribute("href", in: String(element.output[0].substring ?? "")).map(Self.unescaped)
    }

    /// The text of the element with `id` (no nested elements).
    func content(id: String) -> String? {
        guard let match = text.firstMatch(of: try! Regex("id=\"\(id)\"[^>]*>([^<]*)<")) else { return nil }
        return match.output[1].substring.map { Self.unescaped(String($0)) }
    }

    func has(id: String) -> Bool { text.contains("id=\"\(id)\"") }

    private static func attribute(_ name: String, in tag: String) -> String? {
        guard let match = tag.firstMatch(of: try! Regex(" \(name)=\"([^\"]*)\"")) else { return nil }
        return match.output[1].substring.map(String.init)
    }

    static func unescaped(_ text: String) -> String {
        text.replacing("&quot;", with: "\"").replacing("&#39;", with: "'").replacing("&lt;", with: "<")
            .replacing("&gt;", with: ">").replacing("&amp;", with: "&")
    }
}
