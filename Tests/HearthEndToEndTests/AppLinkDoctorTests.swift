import Foundation
import HearthTestSupport
import Testing

/// `hearth doctor links` against real servers: the seed's setup, where both apps open the
/// links, and a project whose registrations (and whose server) cannot work.
@Suite("hearth doctor links")
struct AppLinkDoctorTests {
    /// A project whose apps cannot be associated: an iOS app without a team ID, an Android
    /// app without a fingerprint, beside one of each that is fine.
    static let brokenConfig = """
        {"projects": [{"projectId": "broken-links", "projectNumber": "300000000000", "apiKeys": ["broken-key"],
          "linkDomains": ["links.broken.test"],
          "apps": [
            {"appId": "1:300000000000:ios:01", "platform": "ios", "bundleId": "org.broken.noteam"},
            {"appId": "1:300000000000:ios:02", "platform": "ios", "bundleId": "org.broken.fine", "teamId": "FINE123456"},
            {"appId": "1:300000000000:android:01", "platform": "android", "packageName": "org.broken.unsigned"},
            {"appId": "1:300000000000:android:02", "platform": "android", "packageName": "org.broken.fine",
             "sha256CertFingerprints": ["AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99"]}
          ]}]}
        """

    @Test("on the seed both apps open the link domain's links, and the command exits 0")
    func goodSetup() throws {
        let server = try HearthServerProcess()
        let outcome = try HearthCommand.run(
            [
                "doctor", "links", "--project", "demo-project", "--base",
                server.baseURL,
            ] + server.storeArguments
        )
        #expect(outcome.status == 0, "\(outcome.combined)")
        #expect(outcome.output.contains("custom-domain.com:"))
        #expect(
            outcome.output.contains("iOS ABCDE12345.com.example.ios: opens https://custom-domain.com/__/auth/links")
        )
        #expect(outcome.output.contains("Android com.example.android: opens https://custom-domain.com/__/auth/links"))
        #expect(!outcome.output.contains("does not open"))
    }

    @Test("a broken setup names each app that would not open the links and why, and exits 1")
    func brokenSetup() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-config-broken-links.json")
        try Data(Self.brokenConfig.utf8).write(to: config, options: .atomic)
        let broken = try HearthServerProcess(arguments: ["--config", config.path])
        let outcome = try HearthCommand.run(
            [
                "doctor", "links", "--project", "broken-links", "--base",
                broken.baseURL,
            ] + broken.storeArguments
        )
        #expect(outcome.status == 1, "\(outcome.combined)")
        let output = outcome.output
        #expect(output.contains("iOS org.broken.noteam: does not open"))
        #expect(output.contains("no team ID for org.broken.noteam"))
        #expect(output.contains("iOS FINE123456.org.broken.fine: opens"))
        #expect(output.contains("Android org.broken.unsigned: does not open"))
        #expect(output.contains("no SHA-256 signing-certificate fingerprint for org.broken.unsigned"))
        #expect(output.contains("Android org.broken.fine: opens"))

        // The same project checked against a server where its domain is no link domain.
        let other = try HearthServerProcess()
        let elsewhere = try HearthCommand.run(
            [
                "doctor", "links", "--project", "broken-links", "--base",
                other.baseURL,
            ] + broken.storeArguments
        )
        #expect(elsewhere.status == 1)
        #expect(elsewhere.output.contains("apple-app-site-association answered 404, not 200"))
        #expect(elsewhere.output.contains("assetlinks.json answered 404, not 200"))
        #expect(!elsewhere.output.contains(": opens"))
    }

    @Test("a bad --base and an unknown check are refused readably")
    func refusals() throws {
        let server = try HearthServerProcess()
        let base = try HearthCommand.run(
            [
                "doctor", "links", "--project", "demo-project", "--base", "ftp://x",
            ] + server.storeArguments
        )
        #expect(base.status == 2)
        #expect(base.errors.contains("--base must be an http:// or https:// URL"))
        let unknown = try HearthCommand.run(["doctor", "dns"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("hearth doctor links --project P"))
    }
}
