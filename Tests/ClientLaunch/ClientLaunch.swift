import Foundation
import Hearth

#if canImport(Glibc)
    import Glibc
#endif

/// One launch of an app built on the client SDK, for the tests that restart a process: it
/// configures the development seed's iOS app exactly as app code does (the system clock,
/// URLSession, and the persistence under `$XDG_DATA_HOME/hearth`), makes sure it has an
/// installation and a signed-in user, and prints what it found.
///
/// Usage: `ClientLaunch BASE_URL EMAIL PASSWORD`. Prints
///
/// ```text
/// installation ID: <fid>
/// installation token: <jwt>
/// user: <uid> (signed up | restored)
/// ID token: <jwt>
/// ```
///
/// A first launch registers the installation and signs the user up; a later one on the same
/// data directory must find both persisted, with tokens that still work (both are renewed
/// from their persisted refresh tokens, so a dead entry would fail here).
enum ClientLaunch {
    static func main(arguments: [String]) async {
        let arguments = Array(arguments.dropFirst())
        guard arguments.count == 3, let baseURL = URL(string: arguments[0]), baseURL.scheme != nil else {
            fail("usage: ClientLaunch BASE_URL EMAIL PASSWORD")
        }
        do {
            try await run(baseURL: baseURL, email: arguments[1], password: arguments[2])
        } catch {
            fail("\(error)")
        }
    }

    static func run(baseURL: URL, email: String, password: String) async throws {
        let options = HearthOptions(googleAppID: "1:100000000000:ios:0a1b2c3d4e5f6789", gcmSenderID: "100000000000")
        options.apiKey = "demo-api-key"
        options.projectID = "demo-project"
        options.baseURL = baseURL
        HearthApp.configure(options: options)

        let installations = Installations.installations()
        let restoredUser = Auth.auth().currentUser
        let fid = try await installations.installationID()
        let installationToken = try await installations.authTokenForcingRefresh(restoredUser != nil)
        print("installation ID: \(fid)")
        print("installation token: \(installationToken.authToken)")

        let user: User
        if let restoredUser {
            user = restoredUser
            print("user: \(user.uid) (restored)")
        } else {
            user = try await Auth.auth().createUser(withEmail: email, password: password).user
            print("user: \(user.uid) (signed up)")
        }
        print("ID token: \(try await user.getIDTokenForcingRefresh(restoredUser != nil))")
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("ClientLaunch: \(message)\n".utf8))
        exit(1)
    }
}
