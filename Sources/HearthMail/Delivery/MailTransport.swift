public import HearthBase
import HearthCore
public import HearthNetwork

/// A way to deliver a message. `deliver` blocks until the message was handed over, and
/// throws a `NetworkError` otherwise: `.rejected` when retrying cannot help.
public protocol MailTransport: Sendable {
    /// Recorded with a delivered message (`log`, `smtp`).
    var name: String { get }
    func deliver(_ mail: OutgoingMail) throws(NetworkError)
}

/// The transport of projects without an SMTP server (the development seed's): the message
/// stays in the outbox and one line says it was written and where to read it — `hearth mail
/// show ID`, and for the development project its outbox listing. The line holds no link: a
/// link carries an action code, a secret that never goes to the log.
public struct LogTransport: MailTransport {
    public let log: Log
    /// The project whose codes `GET /emulator/v1/projects/{p}/oobCodes` lists.
    public let developmentProjectID: String?
    public var name: String { "log" }

    public init(log: Log, developmentProjectID: String? = nil) {
        self.log = log
        self.developmentProjectID = developmentProjectID
    }

    public func deliver(_ mail: OutgoingMail) throws(NetworkError) {
        var readWith = "hearth mail show \(mail.id)"
        if mail.projectID == developmentProjectID {
            readWith += ", hearth mail list --project \(mail.projectID)"
            readWith += " or GET /emulator/v1/projects/\(mail.projectID)/oobCodes"
        }
        log.info(
            "mail for \(mail.to.address) kept in the outbox: \(mail.subject) (read it with \(readWith))",
            [
                "mailId": .string(mail.id), "project": .string(mail.projectID), "kind": .string(mail.kind),
                "language": .string(mail.language), "to": .string(mail.to.address),
            ]
        )
    }
}

/// Delivery to an SMTP server.
public struct SMTPTransport: MailTransport {
    public let configuration: SMTPConfiguration
    public var name: String { "smtp" }

    public init(configuration: SMTPConfiguration) { self.configuration = configuration }

    public func deliver(_ mail: OutgoingMail) throws(NetworkError) {
        try SMTPClient.send(
            mail.mimeRepresentation(),
            from: mail.from.address,
            to: [mail.to.address],
            configuration: configuration
        )
    }
}
