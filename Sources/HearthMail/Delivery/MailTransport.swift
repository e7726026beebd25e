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

/// The development transport: the message stays in the outbox (see `hearth mail show`) and
/// one line with its link is logged, so a developer can click it.
public struct LogTransport: MailTransport {
    public let log: Log
    public var name: String { "log" }

    public init(log: Log) { self.log = log }

    public func deliver(_ mail: OutgoingMail) throws(NetworkError) {
        log.info(
            "mail for \(mail.to.address): \(mail.subject)",
            [
                "mailId": .string(mail.id), "project": .string(mail.projectID), "kind": .string(mail.kind),
                "language": .string(mail.language), "to": .string(mail.to.address),
                "link": mail.link.map { .string($0) } ?? .null,
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
