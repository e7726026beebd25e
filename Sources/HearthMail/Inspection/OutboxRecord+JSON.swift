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
            "createTime": .string(Timestamp.iso8601(milliseconds: createdAt)),
            "expireTime": .string(Timestamp.iso8601(milliseconds: expiresAt)),
        ]
        if let lastError { object["lastError"] = .string(lastError) }
        if let transport { object["transport"] = .string(transport) }
        switch state {
        case .queued: object["nextAttemptTime"] = .string(Timestamp.iso8601(milliseconds: nextAttemptAt))
        case .sending:
            if let claimedUntil { object["claimedUntil"] = .string(Timestamp.iso8601(milliseconds: claimedUntil)) }
            if let claimedBy { object["claimedBy"] = .string(claimedBy) }
        case .sent, .failed:
            if let finishedAt { object["finishTime"] = .string(Timestamp.iso8601(milliseconds: finishedAt)) }
        }
        return .object(object)
    }

    /// The summary plus the bodies (or `bodiesSealed` for values not opened, `bodiesPurged`,
    /// or why they cannot be shown) and the action, for one message.
    public var detailJSON: JSONValue {
        guard case .object(var object) = summaryJSON else { preconditionFailure("a summary is an object") }
        if let replyTo { object["replyTo"] = .string(replyTo) }
        if sealedValues != nil && templateValues == nil {
            object["bodiesSealed"] = .bool(true)
        } else {
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
        }
        if let action { object["action"] = action.emulatorJSON }
        return .object(object)
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
