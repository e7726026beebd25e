import Foundation
import HearthCore
import HearthMail
import Testing

/// Every built-in template in every built-in language, rendered with fixed values and
/// compared with the checked-in fixtures (`Fixtures/<KIND>.<language>.{subject.txt,txt,html}`),
/// so that any change to what users receive shows up in review. `HEARTH_UPDATE_FIXTURES=1`
/// writes them anew.
@Suite struct TemplateFixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let cases = MailKind.allCases.flatMap { kind in MailSettings.builtInLanguages.map { (kind, $0) } }

    @Test(arguments: cases)
    func renderedTemplateMatchesItsFixture(kind: MailKind, language: String) throws {
        let mail = try TemplateComposer().compose(sampleRequest(kind, language: language))
        #expect(mail.language == language)
        let base = Self.fixtures.appendingPathComponent("\(kind.rawValue).\(language)")
        let files = [("subject.txt", mail.subject + "\n"), ("txt", mail.text), ("html", mail.html)]
        for (suffix, rendered) in files {
            let url = base.appendingPathExtension(suffix)
            if ProcessInfo.processInfo.environment["HEARTH_UPDATE_FIXTURES"] == "1" {
                try FileManager.default.createDirectory(at: Self.fixtures, withIntermediateDirectories: true)
                try rendered.write(to: url, atomically: true, encoding: .utf8)
            }
            let expected = try String(contentsOf: url, encoding: .utf8)
            #expect(rendered == expected, "\(url.lastPathComponent) differs from what the template renders")
        }
    }

    @Test func everyKindHasEveryBuiltInLanguage() {
        let composer = TemplateComposer()
        for kind in MailKind.allCases {
            for language in MailSettings.builtInLanguages {
                let texts = composer.templateTexts(kind, language: language, settings: MailSettings())
                #expect(
                    texts?.subject?.isEmpty == false && texts?.html?.isEmpty == false && texts?.text?.isEmpty == false
                )
            }
            #expect(composer.templateTexts(kind, language: "de", settings: MailSettings()) == nil)
        }
    }
}
