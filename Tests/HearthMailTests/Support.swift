import Foundation
import HearthCore
import HearthWire

/// The project the mail tests write for: the development seed, named "Example App".
func exampleProject(_ adjust: (inout Project) -> Void = { _ in }) -> Project {
    var project = DevelopmentSeed.project
    project.settings.appName = "Example App"
    adjust(&project)
    return project
}

/// A request of `kind` with fixed sample values, as the fixtures are rendered.
func sampleRequest(_ kind: MailKind, language: String, project: Project = exampleProject()) -> MailRequest {
    var request = MailRequest(
        kind: kind,
        project: project,
        recipient: kind == .action(.verifyAndChangeEmail) ? "ada.new@example.com" : "ada@example.com",
        languages: LanguagePreferences(explicit: language),
        displayName: "Ada Lovelace",
        email: "ada@example.com"
    )
    if let mode = kind.linkMode {
        request.link = "https://example.com/__/auth/action?mode=\(mode)&oobCode=CODE&apiKey=KEY&lang=\(language)"
    }
    if kind.placeholders.contains(.newEmail) { request.newEmail = "ada.new@example.com" }
    return request
}

/// A fresh SQLite store in a temporary directory, removed afterwards.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-mail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The seal of the mail tests' queued messages (a master key of their own).
let testMailSeal = MailSeal(masterKey: MasterKey.generate())
