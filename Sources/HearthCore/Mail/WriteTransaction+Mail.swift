import HearthCrypto
public import HearthStore
public import HearthWire

/// The action an email carries, kept with the message so that development tools can list
/// pending codes (`GET /emulator/v1/projects/{p}/oobCodes`) the way Firebase's emulator does.
public struct MailAction: Sendable, Equatable {
    public var operation: ActionCodeOperation
    public var email: String
    public var newEmail: String?
    public var oobCode: String
    public var oobLink: String

    public init(
        operation: ActionCodeOperation,
        email: String,
        newEmail: String? = nil,
        oobCode: String,
        oobLink: String
    ) {
        self.operation = operation
        self.email = email
        self.newEmail = newEmail
        self.oobCode = oobCode
        self.oobLink = oobLink
    }
}

extension WriteTransaction {
    /// A message without a link deadline is given up after this long at most (the delivery
    /// worker's own maximum age may be shorter).
    public static let longestMailDeliveryMilliseconds: Int64 = 7 * 86_400_000

    /// Queues `mail` in this transaction: it is delivered after the transaction commits, and
    /// never if it rolls back. Answers the stored message (its `id` and `messageID`), its
    /// values sealed with `seal`.
    @discardableResult
    public func enqueueMail(
        _ mail: ComposedMail,
        action: MailAction? = nil,
        sealedWith seal: MailSeal,
        at nowMilliseconds: Int64
    ) throws(StoreError) -> OutboxRecord {
        let record = Self.outboxRecord(for: mail, action: action, sealedWith: seal, at: nowMilliseconds)
        try insertOutboxMessage(record)
        return record
    }

    /// The outbox row of `mail`, built before the write that queues it (with
    /// `insertOutboxMessage`), so the store's writer spends no time formatting or sealing it.
    /// Its template values and action are sealed with `seal`: the row holds nothing usable.
    public static func outboxRecord(
        for mail: ComposedMail,
        action: MailAction? = nil,
        sealedWith seal: MailSeal,
        at nowMilliseconds: Int64
    ) -> OutboxRecord {
        // Time first, then randomness: new messages land at the end of the outbox's indexes
        // (hot pages) instead of at random places in them, and IDs sort by age.
        let id = Self.timePrefix(nowMilliseconds) + Base64URL.encode(SecureRandom.bytes(count: 12))
        let window = mail.deliverWithinSeconds.map { $0 * 1_000 } ?? Self.longestMailDeliveryMilliseconds
        return OutboxRecord(
            id: id,
            projectID: mail.projectID,
            kind: mail.kind.rawValue,
            language: mail.language,
            sender: mail.from.description,
            recipient: mail.to.description,
            replyTo: mail.replyTo?.description,
            subject: mail.subject,
            template: OutboxRecord.Template(key: mail.body.template.key, source: mail.body.template.source),
            templateValues: mail.body.encodedValues,
            messageID: "<\(id)@\(mail.from.domain)>",
            action: action.map(OutboxRecord.Action.init),
            createdAt: nowMilliseconds,
            expiresAt: nowMilliseconds + min(window, Self.longestMailDeliveryMilliseconds)
        ).sealed(with: seal)
    }

    /// Whether `text` has the shape of a message ID this server makes: 9 base-32 digits of its
    /// creation time, then base64url.
    public static func isMessageID(_ text: some StringProtocol) -> Bool {
        let time = text.utf8.prefix(timeDigitCount)
        return time.count == timeDigitCount && time.allSatisfy(isTimeDigit) && text.utf8.count <= 64
            && Base64URL.decode(text.dropFirst(timeDigitCount)).map { !$0.isEmpty } == true
    }

    private static let timeDigitCount = 9
    private static let timeDigits: StaticString = "0123456789abcdefghijklmnopqrstuv"

    /// Whether `byte` is one of `timeDigits`.
    private static func isTimeDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "v")).contains(byte)
    }

    /// `milliseconds` as 9 base-32 digits (fixed width, so IDs compare like their times).
    static func timePrefix(_ milliseconds: Int64) -> String {
        String(unsafeUninitializedCapacity: timeDigitCount) { output in
            var value = UInt64(max(0, milliseconds))
            for index in stride(from: timeDigitCount - 1, through: 0, by: -1) {
                output[index] = timeDigits.utf8Start[Int(value & 31)]
                value >>= 5
            }
            return timeDigitCount
        }
    }
}

extension OutboxRecord.Action {
    /// The stored form of an email's action.
    public init(_ action: MailAction) {
        self.init(
            requestType: action.operation.requestType,
            email: action.email,
            newEmail: action.newEmail,
            oobCode: action.oobCode,
            oobLink: action.oobLink
        )
    }
}
