import Foundation
import HearthAdmin
import HearthTestSupport
import Testing

@testable import Hearth

/// The admin SDK's `installations` and its cache of the project's published keys, against the
/// real binary.
@Suite("HearthAdmin installations and key cache against the real server")
struct AdminInstallationsTests {
    @Test(
        "verifyInstallationToken accepts the server's tokens and refuses tampered, expired, foreign-project, ID and deleted-installation tokens"
    )
    func installationTokens() async throws {
        let harness = try AdminHarness()
        let admin = harness.admin()
        let client = harness.client()
        let installations = Installations.installations(app: client)
        let asked = Date()
        let fid = try await installations.installationID()
        let result = try await installations.authToken()
        // The client dates the expiry from when the answer arrived, the server from when it
        // signed, in whole seconds: they differ by at most the calls' time and a second.
        let callsTook = Date().timeIntervalSince(asked)

        let verified = try await admin.installations.verifyInstallationToken(result.authToken)
        #expect(verified.fid == fid && verified.appID == Seed.iosAppID && verified.projectNumber == Seed.projectNumber)
        #expect(abs(verified.expiration.timeIntervalSince(result.expirationDate)) <= callsTook + 1)
        #expect(try await admin.installations.verifyInstallationToken(result.authToken, online: true) == verified)

        var refusals: [TokenVerificationError] = []
        func refusal(_ token: String, by app: AdminApp? = nil) async -> TokenVerificationError? {
            let error = await #expect(throws: TokenVerificationError.self) {
                try await (app ?? admin).installations.verifyInstallationToken(token)
            }
            if let error { refusals.append(error) }
            return error
        }
        #expect(
            await refusal(try Tokens.withClaim(result.authToken, "fid", "dGhpcyBpcyBub3QgaXQhIQ")) == .invalidSignature
        )
        #expect(await refusal("%%%") == .malformed)

        let foreign = try await Installations.installations(app: harness.client(otherProject: true)).authToken()
        #expect(
            await refusal(foreign.authToken)
                == .wrongProject(expected: Seed.projectNumber, found: Seed.otherProjectNumber)
        )

        let user = try await Auth.auth(app: client)
            .createUser(withEmail: AdminHarness.email("purpose"), password: "purpose password").user
        #expect(
            await refusal(try await user.getIDToken())
                == .wrongPurpose(expected: .installationToken, found: .idToken)
        )

        let nextWeek = AdminTime()
        nextWeek.advance(by: 7 * 24 * 3_600 + 1)
        #expect(await refusal(result.authToken, by: harness.admin(time: nextWeek)) == .expired)

        // Deleted from the admin side: still well signed offline, refused online.
        try await admin.installations.deleteInstallation(fid)
        #expect(try await admin.installations.verifyInstallationToken(result.authToken).fid == fid)
        let deleted = await #expect(throws: TokenVerificationError.self) {
            try await admin.installations.verifyInstallationToken(result.authToken, online: true)
        }
        #expect(deleted == .installationDeleted)
        if let deleted { refusals.append(deleted) }
        #expect(Set(refusals).count == refusals.count, "each refusal has its own error: \(refusals)")

        let again = await #expect(throws: AdminError.self) { try await admin.installations.deleteInstallation(fid) }
        #expect(again?.status == 409)
        let unknown = await #expect(throws: AdminError.self) {
            try await admin.installations.deleteInstallation(InstallationID.generate())
        }
        #expect(unknown?.status == 404 && unknown?.code == "NOT_FOUND")

        // The client's next token call finds its installation gone and moves to a new FID.
        let renewed = try await installations.authTokenForcingRefresh(true)
        let newFID = try await installations.installationID()
        #expect(newFID != fid)
        #expect(try await admin.installations.verifyInstallationToken(renewed.authToken, online: true).fid == newFID)
    }

    @Test(
        "the project's keys are fetched once for many verifications, again after their max-age, and at once for a key published since"
    )
    func keyCache() async throws {
        let harness = try AdminHarness()
        let time = AdminTime()
        let transport = CountingTransport()
        let admin = harness.admin(time: time, transport: transport)
        let jwks = AdminPath.projectJWKS(project: Seed.projectID)
        let client = harness.client()
        let user = try await Auth.auth(app: client)
            .createUser(withEmail: AdminHarness.email("cache"), password: "cache password").user
        let idToken = try await user.getIDToken()
        let installationToken = try await Installations.installations(app: client).authToken().authToken

        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        _ = try await admin.auth.verifyIDToken(idToken)
                    } else {
                        _ = try await admin.installations.verifyInstallationToken(installationToken)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(transport.count(jwks) == 1)

        // The answer's max-age, as the server states it.
        let raw = harness.server.client()
        defer { raw.close() }
        let answer = try raw.request("GET", jwks)
        let maxAge = try #require(answer.headers["cache-control"]?.split(separator: "=").last.flatMap { Int($0) })
        time.advance(by: TimeInterval(maxAge) - 1)
        _ = try await admin.auth.verifyIDToken(idToken)
        #expect(transport.count(jwks) == 1)
        time.advance(by: 2)
        _ = try await admin.auth.verifyIDToken(idToken)
        #expect(transport.count(jwks) == 2)

        // A new ID-token key: the first token it signs makes the cache fetch again at once.
        let rotated = try harness.adminCall(
            "POST",
            "/hearth/v1/projects/\(Seed.projectID)/signingKeys:rotate",
            ["purpose": "idTokens"]
        )
        #expect(rotated.status == 200, "\(rotated.text)")
        let freshToken = try await user.getIDTokenForcingRefresh(true)
        #expect(try Tokens.keyID(freshToken) != Tokens.keyID(idToken))
        #expect(try await admin.auth.verifyIDToken(freshToken).uid == user.uid)
        #expect(transport.count(jwks) == 3)

        // A made-up key ID right after: refused without another fetch; later, one more fetch.
        let madeUp = try Tokens.withKeyID(freshToken, "no-such-key")
        await #expect(throws: TokenVerificationError.unknownKey(keyID: "no-such-key")) {
            try await admin.auth.verifyIDToken(madeUp)
        }
        #expect(transport.count(jwks) == 3)
        time.advance(by: 31)
        await #expect(throws: TokenVerificationError.unknownKey(keyID: "no-such-key")) {
            try await admin.auth.verifyIDToken(madeUp)
        }
        #expect(transport.count(jwks) == 4)
    }
}
