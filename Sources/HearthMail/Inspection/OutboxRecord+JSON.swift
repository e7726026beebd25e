public import HearthBase
import HearthCore
public import HearthStore

extension OutboxRecord {
    /// The message as the admin API and `hearth mail list` show it: where it stands,
    /// without bodies.
    public var summaryJSON: JSONValue {
        var object: JSONObject = [
            "id": .string(id), "messageId": .string(messageID), "kind": .string(kind), "language": .string(language),
            "from": .string(sender), "to": .string(recipient), "subject": .string(subject),
            "state": .string(state.rawValue), "attempts": .int(Int64(attempts)),
            "createTime": .string(Self.time(createdAt)), "expireTime": .string(Self.time(expiresAt)),
        ]
        if let lastError { object["lastError"] = .string(lastError) }
        if let transport { object["transport"] = .string(transport) }
        switch state {
        case .queued: object["nextAttemptTime"] = .string(Self.time(nextAttemptAt))
        case .sending:
            if let claimedUntil { object["claimedUntil"] = .string(Self.time(claimedUntil)) }
            if let claimedBy { object["claimedBy"] = .string(claimedBy) }
        case .sent, .failed:
            if let finishedAt { object["finishTime"] = .string(Self.time(finishedAt)) }
        }
        return .object(object)
    }

    /// The summary plus the bodies (or `bodiesPurged`, or why they cannot be shown) and the
    /// action, for one message.
    public var detailJSON: JSONValue {
        guard case .object(var object) = summaryJSON else { preconditionFailure("a summary is an object") }
        if let replyTo { object["replyTo"] = .string(replyTo) }
        do {
            if let (html, text) = try bodies() {
                object["text"] = .string(text)
                object["html"] = .string(html)
            } else {
                object["bodiesPurged"] = .bool(true)
            }
        } catch {
            object["bodiesError"] = .string(error.message)
        }
        if let action { object["action"] = action.emulatorJSON }
        return .object(object)
    }

    static func time(_ milliseconds: Int64) -> String {
        var bytes: [UInt8] = []
        Timestamp.appendISO8601(milliseconds: milliseconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension OutboxRecord.Action {
    /// One entry of the emulator's `oobCodes` list: `{email, oobCode, oobLink, requestType[, newEmail]}`.
    public var emulatorJSON: JSONValue {
        var object: JSONObject = ["email": .string(email), "requestType": .string(requestType)]
        object["oobCode"] = oobCode.map { .string($0) }
        object["oobLink"] = oobLink.map { .string($0) }
        object["newEmail"] = newEmail.map { .string($0) }
        return .object(object)
    }
}
