import HearthBase
import HearthCore
import HearthHTTP

/// An Identity Toolkit request read the lenient way Google's REST mapping (and so every
/// Firebase client) expects:
///
/// * field names in camelCase or snake_case, or any mix of case and underscores
///   (`returnSecureToken`, `return_secure_token`, JS's `targetProjectid`, `ios_bundle_id` for
///   `iOSBundleId`): a name matches when it is equal after lower-casing and dropping `_`;
/// * enum values as their name or their proto number (Android sends `requestType: 6`);
/// * int64 values as JSON numbers or decimal strings;
/// * fields in the JSON body or, for `GET` calls, in the query string.
///
/// A field of the wrong type is a 400 `INVALID_ARGUMENT` naming the field, as Google answers.
struct IdentityToolkitRequest: Sendable {
    let request: Request
    let body: JSONObject
    /// The first letters of the field names present (in the body and the query), folded, as
    /// bits of `initialBit`: a name whose letter is missing is absent without a comparison.
    /// Most lookups are of optional fields a request leaves out.
    private let initials: UInt64

    init(_ request: Request) throws(GoogleAPIError) {
        guard case .object(let object) = try request.jsonBody() else {
            throw GoogleAPIError.invalidArgument("Invalid JSON payload received. The body must be a JSON object.")
        }
        self.init(request, body: object)
    }

    /// A request whose fields come from elsewhere (a form body, a test).
    init(_ request: Request, body: JSONObject) {
        self.request = request
        self.body = body
        var initials: UInt64 = 0
        for member in body.members { initials |= Self.initialBit(member.key) }
        for item in request.query { initials |= Self.initialBit(item.name) }
        self.initials = initials
    }

    /// The bit of a name's first letter once folded (none for a name of underscores only).
    private static func initialBit(_ name: String) -> UInt64 {
        guard let first = name.utf8.first(where: { $0 != UInt8(ascii: "_") }) else { return 0 }
        return 1 << (ASCII.lowercased(first) & 63)
    }

    // MARK: - Authentication

    /// The API key from `?key=` or the `x-goog-api-key` header.
    var apiKey: String? {
        if let key = request.query["key"], !key.isEmpty { return key }
        if let key = request.headers["x-goog-api-key"], !key.isEmpty { return key }
        return nil
    }

    /// The `Authorization` header when it uses the `Bearer` scheme (other schemes are ignored,
    /// as the Firebase emulator ignores them).
    var bearerAuthorization: String? {
        guard let value = request.headers["authorization"] else { return nil }
        let scheme = value.prefix { $0 != " " }
        return scheme.lowercased() == "bearer" ? value : nil
    }

    // MARK: - Fields

    /// Whether a field is present (and not `null`).
    func has(_ name: String) -> Bool { value(name) != nil }

    /// The raw value of a field: an exact match, else a lenient one; then the query string.
    func value(_ name: String) -> JSONValue? {
        guard initials & Self.initialBit(name) != 0 else { return nil }
        if let exact = body[name] { return exact.isNull ? nil : exact }
        let members = body.members
        for index in members.indices where Self.foldedEqual(members[index].key, name) {
            return members[index].value.isNull ? nil : members[index].value
        }
        for item in request.query where item.name != "key" && Self.foldedEqual(item.name, name) {
            return .string(item.value)
        }
        return nil
    }

    func string(_ name: String) throws(GoogleAPIError) -> String? {
        guard let value = value(name) else { return nil }
        guard case .string(let text) = value else { throw Self.invalid(name, "TYPE_STRING", value) }
        return text
    }

    /// A boolean: `true`/`false`, or the strings `"true"`/`"false"`.
    func bool(_ name: String) throws(GoogleAPIError) -> Bool? {
        guard let value = value(name) else { return nil }
        switch value {
        case .bool(let flag): return flag
        case .string("true"): return true
        case .string("false"): return false
        default: throw Self.invalid(name, "TYPE_BOOL", value)
        }
    }

    /// An int64: a JSON integer or a decimal string.
    func int64(_ name: String) throws(GoogleAPIError) -> Int64? {
        guard let value = value(name) else { return nil }
        guard let number = value.int64Value else { throw Self.invalid(name, "TYPE_INT64", value) }
        return number
    }

    /// A repeated string; a single string reads as a list of one.
    func strings(_ name: String) throws(GoogleAPIError) -> [String] {
        guard let value = value(name) else { return [] }
        switch value {
        case .string(let text): return [text]
        case .array(let elements):
            var strings: [String] = []
            for element in elements {
                guard case .string(let text) = element else { throw Self.invalid(name, "TYPE_STRING", element) }
                strings.append(text)
            }
            return strings
        default: throw Self.invalid(name, "TYPE_STRING", value)
        }
    }

    /// An enum value: one of `cases` by name, or by its proto number (its index in `cases`).
    func enumValue(_ name: String, cases: [String]) throws(GoogleAPIError) -> String? {
        guard let value = value(name) else { return nil }
        return try Self.enumCase(value, name: name, cases: cases)
    }

    /// A repeated enum; a single value reads as a list of one.
    func enumValues(_ name: String, cases: [String]) throws(GoogleAPIError) -> [String] {
        guard let value = value(name) else { return [] }
        guard case .array(let elements) = value else { return [try Self.enumCase(value, name: name, cases: cases)] }
        var values: [String] = []
        for element in elements { values.append(try Self.enumCase(element, name: name, cases: cases)) }
        return values
    }

    private static func enumCase(_ value: JSONValue, name: String, cases: [String]) throws(GoogleAPIError) -> String {
        switch value {
        case .string(let text) where cases.contains(text): return text
        case .string(let text):
            if let index = Int(text), cases.indices.contains(index) { return cases[index] }
        case .int(let index) where cases.indices.contains(Int(index)): return cases[Int(index)]
        default: break
        }
        throw invalid(name, "TYPE_ENUM", value)
    }

    // MARK: - Helpers

    /// A field name compared leniently: ASCII lower-case without underscores.
    /// Whether two names are equal once folded, compared without building either.
    static func foldedEqual(_ left: String, _ right: String) -> Bool {
        // On contiguous bytes: every lookup of a field the body lacks compares it with each
        // member's name.
        withByteBuffer(of: left.utf8) { left in withByteBuffer(of: right.utf8) { foldedEqual(left, $0) } }
    }

    private static func foldedEqual(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        var position = 0
        for byte in left where byte != UInt8(ascii: "_") {
            while position < right.count && right[position] == UInt8(ascii: "_") { position += 1 }
            guard position < right.count, ASCII.lowercased(byte) == ASCII.lowercased(right[position]) else {
                return false
            }
            position += 1
        }
        return right[position...].allSatisfy { $0 == UInt8(ascii: "_") }
    }

    static func fold(_ name: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        for byte in name.utf8 where byte != UInt8(ascii: "_") {
            bytes.append(ASCII.lowercased(byte))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Fields (folded, see ``fold(_:)``) whose values are secrets: an error about one names
    /// the field and its type but never echoes the value.
    static let secretFields: Set<String> = [
        "password", "newpassword", "oldpassword", "oobcode", "refreshtoken", "idtoken", "accesstoken",
        "sessioncookie", "token", "code", "secret", "postbody",
    ]

    static func invalid(_ name: String, _ type: String, _ value: JSONValue) -> GoogleAPIError {
        if secretFields.contains(fold(name)) {
            return GoogleAPIError.invalidArgument("Invalid value at '\(name)' (\(type))")
        }
        var shown = String(decoding: value.serialized().prefix(80), as: UTF8.self)
        if shown.utf8.count == 80 { shown += "…" }
        return GoogleAPIError.invalidArgument("Invalid value at '\(name)' (\(type)), \(shown)")
    }
}

extension IdentityToolkitRequest {
    /// The project whose API key the request carries: 403 when there is none (as Google
    /// answers unidentified callers), `API_KEY_INVALID` when it is unknown.
    func keyProject(in projects: ProjectDirectory) throws -> Project {
        guard let key = apiKey else {
            throw GoogleAPIError(
                code: .forbidden,
                message: "The request is missing a valid API key.",
                status: .permissionDenied
            )
        }
        guard let project = projects.project(apiKey: key) else {
            throw AuthError(.apiKeyInvalid, "API key not valid. Please pass a valid API key.")
        }
        return project
    }
}
