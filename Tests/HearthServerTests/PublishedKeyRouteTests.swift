import Foundation
import HearthBase
import HearthCore
import HearthCrypto
import HearthServer
import Testing

@testable import HearthHTTP

@Suite("Google-shaped public keys for ID tokens")
struct PublishedKeyRouteTests {
    static let x509Path = "/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
    static let jwkPath = "/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"
    static let googleHost = "/www.googleapis.com"
    static let rotatePath = "/hearth/v1/projects/demo-project/signingKeys:rotate"

    /// The seed's ID-token lifetime (3,600 s) plus the key ring's publication leeway (300 s).
    static let retiredWindowSeconds: Int64 = 3_600 + 300

    /// The application with a second project, each with both keys made.
    func application() throws -> (TestApplication, [String: String]) {
        let app = try TestApplication()
        _ = try app.application.projects.save(
            Project(id: "second-project", number: "200000000000", apiKeys: ["second-api-key"])
        )
        var idTokenKeys: [String: String] = [:]
        for project in [TestApplication.projectID, "second-project"] {
            _ = try app.application.keys.activeKey(projectID: project, purpose: .installations)
            idTokenKeys[project] = try app.application.keys.activeKey(projectID: project, purpose: .idTokens).keyID
        }
        return (app, idTokenKeys)
    }

    func certificates(_ answer: TestAnswer) throws -> [String: X509Certificate] {
        guard case .object(let members) = answer.json else { throw TestFailure("not an object: \(answer.text)") }
        var certificates: [String: X509Certificate] = [:]
        for (keyID, value) in members {
            certificates[keyID] = try X509Certificate(pem: try #require(value.stringValue))
        }
        return certificates
    }

    func jsonWebKeys(_ answer: TestAnswer) throws -> [String: JSONWebKey] {
        let set = try JSONDecoder().decode(JSONWebKeySet.self, from: Data(answer.response.body))
        return Dictionary(uniqueKeysWithValues: set.keys.map { ($0.kid ?? "", $0) })
    }

    func kid(of idToken: String) throws -> String {
        let header = try #require(Base64URL.decode(String(idToken.prefix { $0 != "." })))
        return try #require(try JSONValue.parse(header)["kid"]?.stringValue)
    }

    @Test("the x509 document maps every project's ID-token key to a self-signed certificate of that key")
    func certificateDocument() throws {
        let (app, idTokenKeys) = try application()
        let answer = app.send(.get, Self.x509Path)
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == Response.jsonContentType)
        let certificates = try certificates(answer)
        // Only ID-token keys: the two ES256 installation keys are not there.
        #expect(Set(certificates.keys) == Set(idTokenKeys.values))
        let jwks = try jsonWebKeys(app.send(.get, Self.jwkPath))
        for (keyID, certificate) in certificates {
            #expect(certificate.holds(try RS256.PublicKey(jwk: try #require(jwks[keyID]))))
            #expect(certificate.isSelfSigned)
            #expect(certificate.subjectCommonName == "securetoken.system.gserviceaccount.com")
            #expect(certificate.issuerCommonName == "securetoken.system.gserviceaccount.com")
            #expect(certificate.serialNumber.count <= 20 && !certificate.serialNumber.isEmpty)
            // Published from its making (the clock has not moved), with no end while it signs.
            #expect(certificate.notBefore == TestApplication.startMilliseconds / 1_000)
            #expect(certificate.notAfter == X509Certificate.noWellDefinedExpiration)
        }
    }

    @Test("the JWK document lists every project's ID-token keys, RS256 only, with unique key IDs")
    func jwkDocument() throws {
        let (app, idTokenKeys) = try application()
        let answer = app.send(.get, Self.jwkPath)
        #expect(answer.status == 200)
        let keys = try JSONDecoder().decode(JSONWebKeySet.self, from: Data(answer.response.body)).keys
        #expect(keys.count == 2)
        #expect(Set(keys.compactMap(\.kid)) == Set(idTokenKeys.values))
        #expect(keys.allSatisfy { $0.kty == "RSA" && $0.alg == "RS256" && $0.use == "sig" })
        // The project's own JWKS still has both purposes.
        let project = try jsonWebKeys(app.send(.get, "/v1/projects/demo-project/jwks"))
        #expect(Set(project.values.compactMap(\.alg)) == ["ES256", "RS256"])
    }

    @Test("both documents answer the same under the www.googleapis.com host prefix")
    func googleHostPrefix() throws {
        let (app, _) = try application()
        for path in [Self.x509Path, Self.jwkPath] {
            let plain = app.send(.get, path)
            let prefixed = app.send(.get, Self.googleHost + path)
            #expect(prefixed.status == 200)
            #expect(prefixed.response.body == plain.response.body)
            #expect(prefixed.header("Cache-Control") == plain.header("Cache-Control"))
            // The service account's `@` percent-encoded, as some HTTP clients send it.
            let encoded = app.send(.get, path.replacingOccurrences(of: "@", with: "%40"))
            #expect(encoded.status == 200 && encoded.response.body == plain.response.body)
        }
    }

    @Test("an ID token's key ID names a certificate whose key verifies the token")
    func idTokenVerifiesWithItsCertificate() throws {
        let (app, _) = try application()
        let idToken = try #require(try app.signUp("ada@example.com")["idToken"]?.stringValue)
        let certificates = try certificates(app.send(.get, Self.x509Path))
        let jwks = try jsonWebKeys(app.send(.get, Self.jwkPath))
        let keyID = try kid(of: idToken)
        let key = try RS256.PublicKey(jwk: try #require(jwks[keyID]))
        #expect(try #require(certificates[keyID]).holds(key))
        let verified = try JWT.verify(
            idToken,
            keys: { $0 == keyID ? .rs256(key) : nil },
            now: app.clock.nowSeconds()
        )
        #expect(verified.header.kid == keyID)
    }

    @Test("max-age is the cap until a retired key's window nears its end, then the seconds left")
    func cacheControlRespectsTheNextKeyChange() throws {
        let (app, idTokenKeys) = try application()
        let paths = [Self.x509Path, Self.jwkPath, "/v1/projects/demo-project/jwks"]
        for path in paths {
            #expect(app.send(.get, path).header("Cache-Control") == "public, max-age=300")
        }
        let oldKey = try #require(idTokenKeys[TestApplication.projectID])
        let rotated = app.admin(.post, Self.rotatePath, ["purpose": "idTokens"])
        #expect(rotated.status == 200)
        let newKey = try #require(rotated.json["keyId"]?.stringValue)
        let retiredUntil = TestApplication.startMilliseconds / 1_000 + Self.retiredWindowSeconds

        // Both keys are published; the retired one's certificate now ends with its window.
        let certificates = try certificates(app.send(.get, Self.x509Path))
        #expect(Set(certificates.keys) == [oldKey, newKey, try #require(idTokenKeys["second-project"])])
        #expect(certificates[oldKey]?.notAfter == retiredUntil)
        #expect(certificates[newKey]?.notAfter == X509Certificate.noWellDefinedExpiration)
        for path in paths {
            #expect(app.send(.get, path).header("Cache-Control") == "public, max-age=300")
        }

        // 299.5 s before the retired key leaves the set, a cache may keep the documents 299 s.
        app.clock.advance(milliseconds: (Self.retiredWindowSeconds - 300) * 1_000 + 500)
        for path in paths {
            #expect(app.send(.get, path).header("Cache-Control") == "public, max-age=299")
        }
        app.clock.advance(milliseconds: 199_000)
        for path in paths {
            #expect(app.send(.get, path).header("Cache-Control") == "public, max-age=100")
        }
        // The other project's documents do not change with this one's key.
        #expect(app.send(.get, "/v1/projects/second-project/jwks").header("Cache-Control") == "public, max-age=300")

        // Once the window ends the key is gone and the cap applies again.
        app.clock.advance(milliseconds: 101_000)
        #expect(try Set(self.certificates(app.send(.get, Self.x509Path)).keys).contains(oldKey) == false)
        #expect(try jsonWebKeys(app.send(.get, Self.jwkPath))[oldKey] == nil)
        for path in paths {
            #expect(app.send(.get, path).header("Cache-Control") == "public, max-age=300")
        }
    }

    @Test("an unchanged key set is answered with one fixed response, a changed one with a new document")
    func fixedUntilTheSetChanges() throws {
        let (app, _) = try application()
        let first = app.send(.get, Self.x509Path)
        let second = app.send(.get, Self.x509Path)
        #expect(first.response.wireForm != nil && second.response.wireForm != nil)
        #expect(first.response.body == second.response.body)
        app.admin(.post, Self.rotatePath, ["purpose": "idTokens"])
        let afterRotation = app.send(.get, Self.x509Path)
        #expect(afterRotation.response.body != first.response.body)
        #expect(try certificates(afterRotation).count == 3)
        // An installations rotation leaves the ID-token documents as they are.
        app.admin(.post, Self.rotatePath, ["purpose": "installations"])
        #expect(app.send(.get, Self.x509Path).response.body == afterRotation.response.body)
    }

}
