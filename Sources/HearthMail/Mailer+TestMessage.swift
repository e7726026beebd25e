import HearthBase
public import HearthCore
public import HearthStore

extension Mailer {
    /// Queues a sample message to `recipient` (`hearth mail send-test`): the `TEST` message by
    /// default, or a sample of an action email whose link carries a code that does not
    /// exist (so no action is recorded with it). It goes through the project's transport
    /// like any other message.
    @discardableResult
    public func queueTestMessage(
        project: Project,
        to recipient: String,
        kind: MailKind = .test,
        languages: LanguagePreferences = LanguagePreferences(),
        displayName: String? = nil,
        publicURL: String
    ) throws -> OutboxRecord {
        var request = MailRequest(kind: kind, project: project, recipient: recipient, languages: languages)
        request.displayName = displayName
        if let mode = kind.linkMode {
            let apiKey = project.apiKeys.first.map { "&apiKey=\($0)" } ?? ""
            request.link = "\(publicURL)/__/auth/action?mode=\(mode)&oobCode=SAMPLE-NOT-A-REAL-CODE\(apiKey)"
        }
        if kind.placeholders.contains(.newEmail) { request.newEmail = "new-address@example.com" }
        let mail = try composer.compose(request)
        let now = clock.nowMilliseconds()
        let record = try store.write { try $0.enqueueMail(mail, sealedWith: self.seal, at: now) }
        wake()
        return record
    }
}
