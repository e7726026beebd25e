import HearthBase
import HearthHTTP

/// The fields of a request, read the lenient way Google's JSON mapping (and so every Firebase
/// client) expects. Every route family reads its fields through this one type: Identity
/// Toolkit v1 and v3, Secure Token (JSON or form), Installations, the admin routes and
/// Hearth's own.
///
/// * A field name matches when it is equal after lower-casing and dropping `_`:
///   `returnSecureToken`, `return_secure_token`, JS's `targetProjectid`, `ios_bundle_id` for
///   `iOSBundleId`.
/// * A field whose value is `null` is absent: clients that send every member of their model
///   (`"photoUrl": null`) get the answer the request gets without it.
/// * Enum values come as their name or their proto number (Android sends `requestType: 6`);
///   int64 values as JSON numbers or decimal strings; booleans also as `"true"`/`"false"`.
/// * A field of the wrong type is a 400 `INVALID_ARGUMENT` naming the field, as Google answers.
struct RequestFields: Sendable {
    /// The members, in document order (a query string's items after the body's).
    private let members: [JSONObject.Member]

    init(_ object: JSONObject) {
        members = object.members
    }

    /// The body's members, then the query's items other than the API key (for `GET` calls,
    /// whose fields come in the query string).
    init(_ object: JSONObject, query: QueryItems) {
        var members = object.members
        for item in query.items where item.name != "key" { members.append((item.name, .string(item.value))) }
        self.members = members
    }

    /// The items of a form body, as string fields.
    init(form: QueryItems) {
        members = form.items.map { ($0.name, .string($0.value)) }
    }

    /// The fields of the JSON body of `request`.
    init(jsonBodyOf request: Request) throws(GoogleAPIError) {
        self.init(try Self.bodyObject(of: request))
    }

    /// The JSON body of `request` as an object (an empty body is `{}`); anything else is a 400.
    static func bodyObject(of request: Request) throws(GoogleAPIError) -> JSONObject {
        guard case .object(let object) = try request.jsonBody() else {
            throw GoogleAPIError.invalidArgument("Invalid JSON payload received. The body must be a JSON object.")
        }
        return object
    }

    // MARK: - Lookup

    /// The value of a field: the first member whose name matches leniently; `nil` when there
    /// is none or its value is `null`.
    func value(_ name: String) -> JSONValue? {
        guard let member = members.first(where: { Self.namesMatch($0.key, name) }) else { return nil }
        if case .null = member.value { return nil }
        return member.value
    }

    /// Whether a field is present with a value other than `null`.
    func has(_ name: String) -> Bool { value(name) != nil }

    // MARK: - Typed values

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

    /// A message field: its members read the same lenient way.
    func object(_ name: String) throws(GoogleAPIError) -> RequestFields? {
        guard let value = value(name) else { return nil }
        guard case .object(let object) = value else { throw Self.invalid(name, "TYPE_MESSAGE", value) }
        return RequestFields(object)
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
        for element in elements {
            values.append(try Self.enumCase(element, name: name, cases: cases))
        }
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

    // MARK: - Names and errors

    /// Whether two field names are equal once ASCII lower-cased without underscores.
    static func namesMatch(_ left: String, _ right: String) -> Bool {
        var rightBytes = right.utf8.lazy.filter { $0 != UInt8(ascii: "_") }.makeIterator()
        for byte in left.utf8 where byte != UInt8(ascii: "_") {
            guard let other = rightBytes.next(), ASCII.lowercased(byte) == ASCII.lowercased(other) else { return false }
        }
        return rightBytes.next() == nil
    }

    /// Fields whose values are secrets: an error about one names the field and its type but
    /// never echoes the value.
    static let secretFields = [
        "password", "newPassword", "oldPassword", "oobCode", "refreshToken", "idToken", "accessToken",
        "sessionCookie", "token", "code", "secret", "postBody",
    ]

    /// The 400 for a field of the wrong type, worded as Google words it (the value shown up
    /// to 80 bytes, unless the field holds a secret).
    static func invalid(_ name: String, _ type: String, _ value: JSONValue) -> GoogleAPIError {
        if secretFields.contains(where: { namesMatch($0, name) }) {
            return GoogleAPIError.invalidArgument("Invalid value at '\(name)' (\(type))")
        }
        var shown = String(decoding: value.serialized().prefix(80), as: UTF8.self)
        if shown.utf8.count == 80 { shown += "…" }
        return GoogleAPIError.invalidArgument("Invalid value at '\(name)' (\(type)), \(shown)")
    }
}
