import Foundation
import Hearth
import HearthAdmin
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Walks the scenarios of the seed documents against a Hearth running the development seed
/// (`scripts/serve`): an app registers its installation, a user verifies their email through
/// a link the app handles, and a server deletes the installation, which the app notices by
/// moving to a new installation ID.
///
/// Usage: `SeedWalkthrough [BASE_URL]`, or `HEARTH_BASE_URL=…`; `http://127.0.0.1:9099` by default.
enum Walkthrough {
    /// The development seed's values (docs/operations.md, "The development seed").
    static let projectID = "demo-project"
    static let projectNumber = "100000000000"
    static let apiKey = "demo-api-key"
    static let iosAppID = "1:100000000000:ios:0a1b2c3d4e5f6789"

    static func main(arguments: [String]) async {
        let environment = ProcessInfo.processInfo.environment
        let address = arguments.dropFirst().first ?? environment["HEARTH_BASE_URL"] ?? "http://127.0.0.1:9099"
        guard let baseURL = URL(string: address), baseURL.scheme != nil else {
            fail("not a URL: \(address)")
        }
        do {
            try await run(baseURL: baseURL)
        } catch {
            fail("\(error)")
        }
    }

    static func run(baseURL: URL) async throws {
        print("Hearth at \(baseURL.absoluteString)")

        // The app: the seed's iOS app, configured as FirebaseApp would be.
        let options = HearthOptions(googleAppID: iosAppID, gcmSenderID: projectNumber)
        options.apiKey = apiKey
        options.projectID = projectID
        options.baseURL = baseURL
        HearthApp.configure(options: options)

        // The server: the admin SDK with the seed's owner credential.
        let admin = AdminApp(projectID: projectID, credential: .bearer("owner"), baseURL: baseURL)

        // 1. Register an installation; print its ID and token.
        let installations = Installations.installations()
        let fid = try await installations.installationID()
        let token = try await installations.authToken()
        print("1. installation ID: \(fid)")
        print("   auth token: \(token.authToken)")
        print("   expires: \(token.expirationDate)")
        let verified = try await admin.installations.verifyInstallationToken(token.authToken, online: true)
        print("   the server verifies it: fid \(verified.fid), app \(verified.appID)")

        // 2. Send a verification email whose link comes back to the app.
        let email = "walkthrough-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let user = try await Auth.auth().createUser(withEmail: email, password: "walkthrough password").user
        let actionCodeSettings = ActionCodeSettings()
        actionCodeSettings.url = URL(string: "https://www.example.com/?email=\(email)")
        actionCodeSettings.handleCodeInApp = true
        actionCodeSettings.iOSBundleID = "com.example.ios"
        actionCodeSettings.setAndroidPackageName(
            "com.example.android",
            installIfNotAvailable: false,
            minimumVersion: "12"
        )
        actionCodeSettings.linkDomain = "custom-domain.com"
        try await user.sendEmailVerification(with: actionCodeSettings)
        print("2. signed up \(email) (uid \(user.uid)) and sent a verification email")

        // 3. Take the code from the development outbox, as the app would from the opened link.
        let link = try await latestLink(baseURL: baseURL, requestType: ActionCodeOperation.verifyEmail, email: email)
        guard let action = ActionCodeURL(link: link) else { fail("the emailed link holds no action: \(link)") }
        print("3. emailed link: \(link)")
        print("   continue URL: \(action.continueURL?.absoluteString ?? "none")")
        let info = try await Auth.auth().checkActionCode(action.code)
        print("   the code is for: \(info.operation) of \(info.email)")

        // 4. Apply it.
        try await Auth.auth().applyActionCode(action.code)
        try await user.reload()
        print("4. applied; email verified: \(user.isEmailVerified)")

        // 5. Delete the installation from the admin side and observe the ID change.
        let changes = Counter()
        let observer = NotificationCenter.default.addObserver(
            forName: .InstallationIDDidChange,
            object: nil,
            queue: nil
        ) { _ in changes.increment() }
        defer { NotificationCenter.default.removeObserver(observer) }
        try await admin.installations.deleteInstallation(fid)
        print("5. the server deleted installation \(fid)")
        do {
            _ = try await admin.installations.verifyInstallationToken(token.authToken, online: true)
            print("   the old token still verifies online (unexpected)")
        } catch TokenVerificationError.installationDeleted {
            print("   the old token is refused online: installation deleted")
        }
        let renewed = try await installations.authTokenForcingRefresh(true)
        let newFID = try await installations.installationID()
        print("   the app's next token call moved it to a new installation ID: \(newFID)")
        print("   InstallationIDDidChange notifications: \(changes.value)")
        let again = try await admin.installations.verifyInstallationToken(renewed.authToken, online: true)
        print("   the new token verifies for \(again.fid)")
        guard newFID != fid, again.fid == newFID, user.isEmailVerified else {
            fail("the walkthrough did not end as expected")
        }
        print("Done.")
    }

    /// The newest link of `requestType` for `email` in the development outbox
    /// (`GET /emulator/v1/projects/{p}/oobCodes`, development seed only).
    static func latestLink(baseURL: URL, requestType: ActionCodeOperation, email: String) async throws -> String {
        let url = baseURL.appendingPathComponent(AdminPath.developmentOobCodes(project: projectID))
        let response = try await URLSessionTransport().send(HTTPRequest(method: "GET", url: url))
        guard response.status == 200 else { fail("the outbox answered \(response.status)") }
        let listing = try JSONDecoder().decode(DevelopmentOobCodesResponse.self, from: response.body)
        guard
            let entry = listing.oobCodes.last(where: {
                $0.operation == requestType && $0.email.lowercased() == email.lowercased()
            }),
            let link = entry.oobLink
        else { fail("no \(requestType.requestType) link for \(email) in the outbox") }
        return link
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("SeedWalkthrough: \(message)\n".utf8))
        exit(1)
    }
}

/// A count shared with the notification observer.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
