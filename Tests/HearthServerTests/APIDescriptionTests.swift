import Foundation
import HearthBase
import HearthWire
import Testing

@testable import HearthHTTP
@testable import HearthServer

/// The OpenAPI description (`APIDescription`, served at `/openapi.json`, checked in as
/// `docs/openapi.json`) against what the server does: its router's routes, HearthWire's types,
/// and the checked-in copy.
///
/// After changing a route or a wire type, update the description in
/// `Sources/HearthServer/Routes/APIDescription.swift`, then rewrite the checked-in copy with
/// `HEARTH_WRITE_OPENAPI=1 swift test --filter APIDescriptionTests`.
@Suite struct APIDescriptionTests {
    static let checkedIn = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/openapi.json")

    /// The described operations, as (method, path).
    static var described: [(method: String, path: String)] {
        guard let paths = APIDescription.document["paths"]?.objectValue else { return [] }
        return paths.members.flatMap { path, operations in
            (operations.objectValue?.keys ?? []).map { (method: $0.uppercased(), path: path) }
        }
    }

    /// Every route of a `hearth serve --test-clock` node.
    static func registeredRoutes() throws -> [(method: String, pattern: String)] {
        let app = try TestApplication()
        var router = app.router
        app.application.addTestClockRoutes(to: &router, clock: OffsetClock(base: app.clock))
        return router.registeredRoutes.map { (method: $0.method.rawValue, pattern: $0.pattern) }
    }

    /// Whether a described path (literals and `{parameter}`s) is one the route pattern takes.
    static func pattern(_ pattern: String, serves path: String) -> Bool {
        let patternSegments = pattern.split(separator: "/")
        let pathSegments = path.split(separator: "/")
        guard patternSegments.count == pathSegments.count else { return false }
        return zip(patternSegments, pathSegments).allSatisfy { wanted, given in
            guard wanted.hasPrefix("{"), let close = wanted.firstIndex(of: "}") else { return wanted == given }
            let verb = wanted[wanted.index(after: close)...]
            return verb.isEmpty || (given.hasSuffix(verb) && given.count > verb.count)
        }
    }

    @Test("every route the router registers is described")
    func everyRouteDescribed() throws {
        let described = Self.described
        let routes = try Self.registeredRoutes()
        #expect(routes.count > 50)
        for route in routes {
            let covered = described.contains {
                $0.method == route.method && Self.pattern(route.pattern, serves: $0.path)
            }
            #expect(covered, "\(route.method) \(route.pattern) is served but not in the API description")
        }
    }

    @Test("every described operation is served by a route of that method")
    func everyDescribedOperationServed() throws {
        let routes = try Self.registeredRoutes()
        for operation in Self.described {
            let served = routes.contains {
                $0.method == operation.method && Self.pattern($0.pattern, serves: operation.path)
            }
            #expect(served, "\(operation.method) \(operation.path) is described but no route serves it")
        }
    }

    @Test("every legacy v3 name whose method Hearth serves is described, under the same request schema")
    func legacyNames() throws {
        guard let paths = APIDescription.document["paths"]?.objectValue else {
            Issue.record("no paths")
            return
        }
        let served = Set(paths.keys)
        for (legacy, method) in IdentityToolkitEndpoints.legacyNames {
            let v1 = "/v1/\(method)"
            let v3 = "/identitytoolkit/v3/relyingparty/\(legacy)"
            #expect(served.contains(v1) == served.contains(v3), "\(legacy): \(v1) and \(v3) are not both described")
            if let v1Body = paths[v1]?["post"]?["requestBody"] {
                #expect(paths[v3]?["post"]?["requestBody"] == v1Body, "\(v3) describes another body than \(v1)")
            }
        }
    }

    /// The schemas named after HearthWire types: each decodes what is described and encodes
    /// it back.
    static let wireTypes: [String: WireType] = [
        "SignUpRequest": WireType(SignUpRequest.self),
        "SignInResponse": WireType(SignInResponse.self),
        "SignInWithPasswordRequest": WireType(SignInWithPasswordRequest.self),
        "SignInWithEmailLinkRequest": WireType(SignInWithEmailLinkRequest.self),
        "SendOobCodeRequest": WireType(SendOobCodeRequest.self),
        "SendOobCodeResponse": WireType(SendOobCodeResponse.self),
        "ResetPasswordRequest": WireType(ResetPasswordRequest.self),
        "ResetPasswordResponse": WireType(ResetPasswordResponse.self),
        "UpdateAccountRequest": WireType(UpdateAccountRequest.self),
        "UpdateAccountResponse": WireType(UpdateAccountResponse.self),
        "LookupRequest": WireType(LookupRequest.self),
        "LookupResponse": WireType(LookupResponse.self),
        "UserRecord": WireType(UserRecord.self),
        "ProviderUserInfo": WireType(ProviderUserInfo.self),
        "DeleteAccountRequest": WireType(DeleteAccountRequest.self),
        "DeleteAccountResponse": WireType(DeleteAccountResponse.self),
        "BatchGetAccountsResponse": WireType(BatchGetAccountsResponse.self),
        "CreateAccountRequest": WireType(CreateAccountRequest.self),
        "RefreshTokenRequest": WireType(RefreshTokenRequest.self),
        "RefreshTokenResponse": WireType(RefreshTokenResponse.self),
        "CreateInstallationRequest": WireType(CreateInstallationRequest.self),
        "InstallationAuthToken": WireType(InstallationAuthToken.self),
        "CreateInstallationResponse": WireType(CreateInstallationResponse.self),
        "GenerateAuthTokenRequest": WireType(GenerateAuthTokenRequest.self),
        "VerifyInstallationTokenRequest": WireType(VerifyInstallationTokenRequest.self),
        "VerifyInstallationTokenResponse": WireType(VerifyInstallationTokenResponse.self),
        "ProjectConfigResponse": WireType(ProjectConfigResponse.self),
        "DevelopmentOobCode": WireType(DevelopmentOobCode.self),
        "DevelopmentOobCodesResponse": WireType(DevelopmentOobCodesResponse.self),
        "JWK": WireType(JWK.self),
        "JWKSet": WireType(JWKSet.self),
        "GoogleErrorEnvelope": WireType(GoogleErrorEnvelope.self),
    ]

    static var schemas: JSONObject { APIDescription.document["components"]?["schemas"]?.objectValue ?? JSONObject() }

    @Test("every described schema is a HearthWire type")
    func everySchemaIsAWireType() {
        #expect(!Self.schemas.isEmpty)
        #expect(Set(Self.schemas.keys) == Set(Self.wireTypes.keys))
    }

    @Test(
        "each schema's properties are exactly its wire type's coding keys",
        arguments: APIDescriptionTests.wireTypes.keys.sorted()
    )
    func schemaMatchesWireType(name: String) throws {
        let schema = try #require(Self.schemas[name])
        let wireType = try #require(Self.wireTypes[name])
        let sample = try Self.sample(schema)
        let encoded: JSONValue
        let unset: [String]
        do {
            (encoded, unset) = try wireType.roundTrip(sample)
        } catch {
            Issue.record("\(name) does not decode its described sample \(sample): \(error)")
            return
        }
        // A described property the type does not know is dropped on the way through; a stored
        // optional left nil is one the type has and the description lacks.
        #expect(encoded == sample, "\(name): described \(sample), the type keeps \(encoded)")
        #expect(unset.isEmpty, "\(name) has properties the description lacks: \(unset)")
    }

    /// A value of every described property: each object with all its properties, each array
    /// with one item, each string the first of its `enum` (or a word).
    static func sample(_ schema: JSONValue) throws -> JSONValue {
        if let reference = schema["$ref"]?.stringValue {
            let name = String(reference.split(separator: "/").last ?? "")
            return try sample(try #require(schemas[name], "\(reference) is not described"))
        }
        switch schema["type"]?.stringValue {
        case "object":
            let properties = schema["properties"]?.objectValue ?? JSONObject()
            return .object(JSONObject(try properties.members.map { ($0.key, try sample($0.value)) }))
        case "array": return .array([try sample(try #require(schema["items"]))])
        case "string": return schema["enum"]?[0] ?? "word"
        case "integer": return 7
        case "number": return 1.5
        case "boolean": return true
        default: throw TestFailure("a schema without a known type: \(schema)")
        }
    }

    @Test("the checked-in docs/openapi.json is the served description")
    func checkedInCopy() throws {
        let served = try JSONSerialization.jsonObject(with: Data(APIDescription.document.serialized()))
        let pretty = try JSONSerialization.data(withJSONObject: served, options: [.prettyPrinted, .sortedKeys])
        if ProcessInfo.processInfo.environment["HEARTH_WRITE_OPENAPI"] == "1" {
            try (pretty + Data("\n".utf8)).write(to: Self.checkedIn)
        }
        let checkedIn = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.checkedIn))
        #expect(
            (checkedIn as? NSDictionary)?.isEqual(served) == true,
            "docs/openapi.json differs from APIDescription; rewrite it with HEARTH_WRITE_OPENAPI=1 swift test --filter APIDescriptionTests"
        )
    }

    @Test("GET /openapi.json answers the description as JSON, the same bytes every time")
    func served() throws {
        let app = try TestApplication()
        let first = app.send(.get, "/openapi.json")
        #expect(first.status == 200)
        #expect(first.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(first.json == APIDescription.document)
        #expect(app.send(.get, "/openapi.json").response.body == first.response.body)
        #expect(first.json["paths"]?["/v1/accounts:signUp"]?["post"]?["operationId"] == "accounts:signUp.post")
    }
}

/// A HearthWire type, as a JSON round trip: decode, list the stored optionals left `nil`, encode.
struct WireType: Sendable {
    let roundTrip: @Sendable (JSONValue) throws -> (encoded: JSONValue, unset: [String])

    init<T: Codable>(_ type: T.Type) {
        roundTrip = { sample in
            let value = try JSONDecoder().decode(T.self, from: Data(sample.serialized()))
            let encoded = try JSONValue.parse(Array(try JSONEncoder().encode(value)))
            return (encoded, Self.unsetOptionals(value, path: String(describing: T.self)))
        }
    }

    /// The stored optionals of `value` (and of the structs and arrays it holds) that are `nil`.
    static func unsetOptionals(_ value: Any, path: String) -> [String] {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return [path] }
            return unsetOptionals(wrapped, path: path)
        case .struct:
            return mirror.children.flatMap { child in
                unsetOptionals(child.value, path: path + "." + (child.label ?? "?"))
            }
        case .collection:
            return mirror.children.flatMap { unsetOptionals($0.value, path: path + "[]") }
        default:
            return []
        }
    }
}
