import Foundation
import HearthBase
import HearthCore
import Testing

@Suite struct ProjectValidationTests {
    @Test func theDevelopmentSeedIsValid() throws {
        let project = try DevelopmentSeed.project.validated()
        #expect(project == DevelopmentSeed.project)
    }

    @Test func theSenderFollowsTheFieldsItIsMadeOf() throws {
        var project = Project(id: "p1", number: "1", displayName: "First")
        #expect(try project.mailSender() == MailAddress(address: "noreply@p1.hearth.local", displayName: "First"))
        project.displayName = "Renamed"
        #expect(try project.mailSender().displayName == "Renamed")
        project.settings.appName = "The App"
        #expect(try project.mailSender().displayName == "The App")
        project.id = "p2"
        #expect(try project.mailSender().address == "noreply@p2.hearth.local")
        project.settings.mail.from = "\"Ex, Inc.\" <hello@example.com>"
        #expect(try project.mailSender() == MailAddress(address: "hello@example.com", displayName: "Ex, Inc."))
        project.settings.mail.from = "not an address"
        #expect(throws: MailError.self) { try project.mailSender() }
    }

    @Test func everyProblemIsReportedAtOnce() {
        var project = DevelopmentSeed.project
        project.id = "Bad_ID"
        project.number = "12x"
        project.apiKeys = []
        project.authorizedDomains = ["https://evil.example/path"]
        project.defaultLinkDomain = "not-listed.example"
        #expect {
            try project.validated()
        } throws: { error in
            guard let error = error as? ProjectValidationError else { return false }
            return error.problems.count == 5
        }
    }

    @Test func hostsAreLowerCasedAndFingerprintsNormalised() throws {
        var project = DevelopmentSeed.project
        project.authorizedDomains = ["WWW.Example.COM", "*.Apps.Example.com"]
        project.apps[2].sha256CertificateFingerprints = [String(repeating: "ab", count: 32)]
        let validated = try project.validated()
        #expect(validated.authorizedDomains == ["www.example.com", "*.apps.example.com"])
        #expect(
            validated.apps[2].sha256CertificateFingerprints == [
                Array(repeating: "AB", count: 32).joined(separator: ":")
            ]
        )
    }

    @Test func appIDsMustBelongToTheProjectNumberAndPlatform() {
        var project = DevelopmentSeed.project
        project.apps[0].id = "1:999:web:abc"
        #expect(throws: ProjectValidationError.self) { try project.validated() }
    }
}

@Suite struct ProjectDirectoryTests {
    @Test func projectsAreFoundByIDNumberAndAPIKey() throws {
        let temporary = try TemporaryStore()
        let directory = try ProjectDirectory(store: temporary.store, clock: SystemClock())
        try directory.save(DevelopmentSeed.project)
        #expect(directory.project("demo-project")?.number == "100000000000")
        #expect(directory.project("100000000000")?.id == "demo-project")
        #expect(directory.project(apiKey: "demo-api-key")?.id == "demo-project")
        #expect(directory.project(apiKey: "other") == nil)
    }

    @Test func aReloadingDirectorySeesAnothersChangeWithinItsRefreshIntervalAndAnIdleOneDoesNot() throws {
        let temporary = try TemporaryStore()
        let writer = try ProjectDirectory(store: temporary.store, clock: SystemClock())
        let idle = try ProjectDirectory(store: temporary.store, clock: SystemClock(), refreshMilliseconds: 50)
        let reader = try ProjectDirectory(store: temporary.store, clock: SystemClock(), refreshMilliseconds: 50)
        reader.startReloading()
        defer { reader.stopReloading() }
        try writer.save(DevelopmentSeed.project)
        let deadline = ContinuousClock.now + .seconds(10)
        while reader.project("demo-project") == nil && ContinuousClock.now < deadline {
            usleep(10_000)
        }
        #expect(reader.project("demo-project") != nil)
        // Requests never reload: a directory that is not reloading keeps what it read.
        #expect(idle.project("demo-project") == nil)
    }

    @Test func aNumberOrAPIKeyUsedByAnotherProjectIsRefused() throws {
        let temporary = try TemporaryStore()
        let directory = try ProjectDirectory(store: temporary.store, clock: SystemClock())
        try directory.save(DevelopmentSeed.project)
        var other = Project(id: "other-project", number: "100000000000", apiKeys: ["other-key"])
        #expect(throws: ProjectValidationError.self) { try directory.save(other) }
        other.number = "200000000000"
        other.apiKeys = ["demo-api-key"]
        #expect(throws: ProjectValidationError.self) { try directory.save(other) }
        other.apiKeys = ["other-key"]
        try directory.save(other)
        #expect(directory.all.map(\.id) == ["demo-project", "other-project"])
    }

    @Test func settingsMissingFromAConfigurationTakeTheirDefaults() throws {
        let json =
            #"{"projectId":"some-project","projectNumber":42,"apiKeys":["k"],"settings":{"idTokenLifetimeSeconds":600}}"#
        let project = try JSONDecoder().decode(Project.self, from: Data(json.utf8))
        #expect(project.number == "42")
        #expect(project.settings.idTokenLifetimeSeconds == 600)
        #expect(project.settings.installationTokenLifetimeSeconds == 604_800)
        #expect(project.settings.emailEnumerationProtection)
    }
}
