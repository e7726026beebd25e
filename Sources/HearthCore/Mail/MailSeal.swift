public import HearthStore

/// Seals what a queued email holds that whoever reads the database could use: its template
/// values (the action link, code included) and the development tools' copy of its action.
/// Sealed with AES-256-GCM under a key derived from the master key, as the signing keys are,
/// and bound to the message's project, ID and part, so a sealed value copied to another row
/// does not open. Opened only to deliver a message or, for the development seed, to show it.
public struct MailSeal: Sendable {
    private let key: MasterKey

    public init(masterKey: MasterKey) {
        // A derived key has a master key's length (32 bytes).
        key = MasterKey(bytes: masterKey.derivedKey(for: "queued mail"))!
    }

    /// What part of a message a sealed value is, so one part cannot stand in for another.
    enum Part: String {
        case values
        /// The development copy of the action: its code, a line feed, its link.
        case action
    }

    func seal(_ text: String, _ part: Part, of message: OutboxRecord.Key) -> [UInt8] {
        key.seal(Array(text.utf8), context: Self.context(part, message))
    }

    func open(_ sealed: [UInt8], _ part: Part, of message: OutboxRecord.Key) throws(MailError) -> String {
        do {
            return String(decoding: try key.open(sealed, context: Self.context(part, message)), as: UTF8.self)
        } catch {
            throw MailError(.sealedValue, "the sealed \(part.rawValue) of message \(message.id) do not open")
        }
    }

    private static func context(_ part: Part, _ message: OutboxRecord.Key) -> String {
        "mail \(part.rawValue):\(message.projectID)/\(message.id)"
    }
}

extension OutboxRecord {
    /// The record with its sealed template values and action opened, for delivery or the
    /// development tools. What is not sealed is left as it is.
    public func opened(with seal: MailSeal) throws(MailError) -> OutboxRecord {
        var record = self
        if let sealedValues {
            record.templateValues = try seal.open(sealedValues, .values, of: key)
        }
        if let sealedAction = action?.sealed {
            let opened = try seal.open(sealedAction, .action, of: key)
            guard let newline = opened.firstIndex(of: "\n") else {
                throw MailError(.sealedValue, "the sealed action of message \(id) holds no code")
            }
            record.action?.oobCode = String(opened[..<newline])
            record.action?.oobLink = String(opened[opened.index(after: newline)...])
        }
        return record
    }

    /// The record as it is stored: template values and action sealed, nothing usable in the
    /// clear.
    public func sealed(with seal: MailSeal) -> OutboxRecord {
        var record = self
        if let templateValues {
            record.sealedValues = seal.seal(templateValues, .values, of: key)
            record.templateValues = nil
        }
        if let code = action?.oobCode, let link = action?.oobLink {
            record.action?.sealed = seal.seal(code + "\n" + link, .action, of: key)
            record.action?.oobCode = nil
            record.action?.oobLink = nil
        }
        return record
    }
}

extension MailSeal {
    /// Seals the template values and actions that messages queued by a version that did not
    /// seal them hold in the clear (run at start-up, before delivery); answers how many
    /// messages it sealed.
    @discardableResult
    public func sealMessagesStoredInTheClear(in store: any Store) throws -> Int {
        let batch = 256
        var total = 0
        while true {
            let sealed = try store.write { [self] transaction in
                let clear = try transaction.outboxMessagesInTheClear(limit: batch)
                for record in clear { try transaction.replaceOutboxValues(with: record.sealed(with: self)) }
                return clear.count
            }
            total += sealed
            if sealed < batch { return total }
        }
    }
}
