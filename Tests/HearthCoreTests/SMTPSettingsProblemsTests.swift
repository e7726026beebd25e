import HearthCore
import Testing

@Suite struct SMTPSettingsProblemsTests {
    @Test func aProblemWithTheURLNamesItWithoutItsPassword() {
        let problems = SMTPSettings(url: "smtp://mailer:hunter2@:25").problems()
        #expect(problems == [#"url "smtp://***@:25" names no host"#])
    }
}
