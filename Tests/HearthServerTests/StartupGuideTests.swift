import HearthBase
import Testing

@testable import HearthServer

@Suite("What start-up tells a newcomer")
struct StartupGuideTests {
    @Test("the development seed's lines name the outbox listing, hearth mail list and the emulator host")
    func developmentSeed() {
        var options = ServeOptions()
        options.dataDirectory = "/srv/hearth"
        let lines = StartupGuide.lines(options, port: 9099)
        #expect(lines.count == 2)
        #expect(lines[0].contains("hearth mail list --project demo-project --data /srv/hearth"))
        #expect(lines[0].contains("GET http://127.0.0.1:9099/emulator/v1/projects/demo-project/oobCodes"))
        #expect(lines[1].contains("FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099"))
        #expect(lines[1].contains("http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/"))
        #expect(lines[1].contains("/securetoken.googleapis.com/v1/token"))
        #expect(lines[1].contains("/firebaseinstallations.googleapis.com/v1/"))
    }

    @Test("a server on every interface is reached at loopback, and an SMTP password is never shown")
    func everyInterfaceAndSMTP() {
        var options = ServeOptions()
        options.host = "0.0.0.0"
        options.configPath = "hearth.json"
        options.databaseURL = "postgres://hearth:s3cret@db/hearth"
        options.mail.smtpURL = "smtp://mailer:hunter2@smtp.example.com:587"
        let lines = StartupGuide.lines(options, port: 8080)
        #expect(lines[0].contains("sent through smtp://***@smtp.example.com:587"))
        #expect(lines[0].contains("hearth mail list --project PROJECT --database postgres://***@db/hearth"))
        #expect(!lines[0].contains("oobCodes"))
        #expect(lines[1].contains("FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:8080"))
        #expect(!lines.joined().contains("hunter2") && !lines.joined().contains("s3cret"))
    }

    @Test("the development seed on a non-loopback host is warned about; on loopback or without the seed it is not")
    func seedBeyondThisMachine() {
        var options = ServeOptions()
        #expect(StartupGuide.warnings(options).isEmpty)
        options.host = "0.0.0.0"
        let warnings = StartupGuide.warnings(options)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("\"Bearer owner\"") == true)
        #expect(warnings.first?.contains("/emulator/v1/projects/demo-project/oobCodes") == true)
        options.configPath = "hearth.json"
        #expect(StartupGuide.warnings(options).isEmpty)
        options.development = true
        #expect(StartupGuide.warnings(options).count == 1)
    }

    @Test("trusting every address as a proxy is warned about; trusting some is not")
    func everyAddressTrusted() throws {
        for list in ["0.0.0.0/0", "10.0.0.5,::/0"] {
            let warnings = StartupGuide.warnings(try ServeOptions.parse(["--trusted-proxies", list]))
            #expect(warnings.count == 1, "\(list)")
            #expect(warnings.first?.hasPrefix("--trusted-proxies trusts every address") == true)
        }
        #expect(StartupGuide.warnings(try ServeOptions.parse(["--trusted-proxies", "10.0.0.0/8,fd00::/8"])).isEmpty)
    }

    @Test("--test-clock is refused unless the server listens on loopback only")
    func testClockNeedsLoopback() throws {
        for host in ["127.0.0.1", "127.0.0.2", "::1", "localhost"] {
            #expect(try ServeOptions.parse(["--test-clock", "--host", host]).testClock)
        }
        for host in ["0.0.0.0", "::", "192.168.1.5"] {
            let error = #expect(throws: UsageError.self) { try ServeOptions.parse(["--test-clock", "--host", host]) }
            #expect(error?.message.contains("--test-clock") == true)
        }
    }
}
