import Foundation
import HearthTestSupport
import Testing

/// Headless Chromium (Debian's `chromium` and `chromium-driver`, driven by Selenium from the
/// test tooling's `browser_flows.py`) follows each link the real `hearth` binary emails to the
/// SMTP sink, through the hosted pages, to the app's continue URL; the script checks the pages
/// against their DOM contract and what the server did (the password works, the email is
/// verified, changed and recovered, a session is issued). Every page it sees is screenshotted
/// under `.build/browser-screenshots/` for a person to look at.
@Suite struct BrowserFlowTests {
    /// The flows the script runs, by the names it prints.
    static let allFlows = [
        "resetPassword-en", "resetPassword-nojs", "resetPassword-fa", "verifyEmail-en", "verifyEmail-fa", "signIn-en",
        "verifyAndChangeEmail-en", "backToApp", "refusedPayload",
    ]

    static var flows: [String] { allFlows }

    @Test(
        "Headless Chromium follows every emailed action link through the hosted pages to the continue URL",
        .enabled(if: Browser.available, Browser.unavailableReason)
    )
    func everyEmailedLinkLeadsToTheContinueURL() throws {
        let sink = try SMTPSink()
        let server = try HearthServerProcess(arguments: ["--smtp", sink.url, "--mail-poll", "100"])
        let screenshots = Browser.screenshotDirectory
        try? FileManager.default.removeItem(at: screenshots)
        let (status, output) = try runToolingScript(
            "browser_flows.py",
            arguments: [
                "--base", server.baseURL, "--sink", sink.directory.path, "--screenshots", screenshots.path,
                "--only", Self.flows.joined(separator: ","),
            ],
            against: server
        )
        for flow in Self.flows {
            #expect(output.contains("ok: \(flow) ("), "flow \(flow) did not pass:\n\(output)")
        }
        #expect(status == 0 && output.contains("ALL OK"), "browser_flows.py failed:\n\(output)")
    }
}

/// Whether this machine can run the browser tests.
enum Browser {
    static let chromium = "/usr/bin/chromium"
    static let driver = "/usr/bin/chromedriver"

    /// Installed, or on CI (`CI` set), where a missing browser must fail the test, not skip it:
    /// `scripts/bootstrap --test` installs it there.
    static var available: Bool { installed || onCI }

    static var installed: Bool {
        FileManager.default.isExecutableFile(atPath: chromium) && FileManager.default.isExecutableFile(atPath: driver)
    }

    static var onCI: Bool {
        let value = ProcessInfo.processInfo.environment["CI"] ?? ""
        return !value.isEmpty && value != "false" && value != "0"
    }

    static let unavailableReason: Comment =
        "Chromium is not installed (\(chromium), \(driver)): run scripts/bootstrap --test to install chromium and chromium-driver"

    /// `.build/browser-screenshots` of the package.
    static var screenshotDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/browser-screenshots")
    }
}
