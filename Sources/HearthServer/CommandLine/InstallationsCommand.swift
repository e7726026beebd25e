import HearthBase
import HearthCore
import HearthStore

/// `hearth installations list|show|delete` and `hearth webhooks list|add|remove|deliveries`:
/// the installations area on the same data as the server (`--data` / `--database`).
enum InstallationsCommand {
    static let usage = """
          installations list --project P [--limit N] [--after FID]
                                         list live installations (FID order)
          installations show --project P FID
                                         show one, live or deleted (with its deliveries)
          installations delete --project P FID
                                         delete one as an admin would (tombstone + webhooks)
          webhooks list --project P      list the deletion-webhook subscriptions
          webhooks add --project P --url URL [--secret S] [--description D]
                                         subscribe a service (the secret is printed once)
          webhooks remove --project P ID unsubscribe (its pending deliveries are dropped)
          webhooks deliveries --project P [--state pending|delivered|failed] [--limit N]
                                         list deletion-event deliveries (default: pending)
        """

    static func run(_ command: String, _ arguments: [String], environment: [String: String]) throws -> Int32 {
        guard let action = arguments.first else {
            throw UsageError("hearth \(command): say what to do (see hearth --help)")
        }
        let name = "\(command) \(action)"
        let parsed = try ParsedArguments(
            arguments.dropFirst(),
            command: name,
            valued: StoredData.flags.union(["project", "limit", "after", "url", "secret", "description", "state"]),
            switches: []
        )
        let stored = try StoredData(parsed)
        defer { stored.close() }
        let (store, clock) = (stored.store, stored.clock)
        let project = try stored.project(parsed, command: name)
        let projectID = project.id
        let limit = try parsed.integer("limit", default: 100, in: 1...100_000, command: name)

        func positional(_ what: String) throws(UsageError) -> String {
            guard let value = parsed.positional.first else { throw UsageError("hearth \(name): name the \(what)") }
            return value
        }

        switch (command, action) {
        case ("installations", "list"):
            let after = parsed.value("after") ?? ""
            for record in try store.read({ try $0.installations(projectID: projectID, afterFID: after, limit: limit) })
            {
                print(
                    [
                        record.fid, record.appID, record.sdkVersion,
                        Timestamp.iso8601(milliseconds: record.createdMilliseconds),
                        Timestamp.iso8601(milliseconds: record.lastSeenMilliseconds),
                    ].joined(separator: "\t")
                )
            }
        case ("installations", "show"):
            let fid = try positional("FID")
            if let record = try store.read({ try $0.installation(projectID: projectID, fid: fid) }) {
                print("fid\t\(record.fid)\nstate\tactive\napp\t\(record.appID)\nsdkVersion\t\(record.sdkVersion)")
                print(
                    "created\t\(Timestamp.iso8601(milliseconds: record.createdMilliseconds))\nlastSeen\t\(Timestamp.iso8601(milliseconds: record.lastSeenMilliseconds))"
                )
            } else if let tombstone = try store.read({ try $0.installationTombstone(projectID: projectID, fid: fid) }) {
                print("fid\t\(tombstone.fid)\nstate\tdeleted\napp\t\(tombstone.appID)")
                print(
                    "deleted\t\(Timestamp.iso8601(milliseconds: tombstone.deletedMilliseconds))\ncause\t\(tombstone.cause)"
                )
                for delivery in try store.read({ try $0.installationDeliveries(projectID: projectID, fid: fid) }) {
                    print("delivery\t" + describe(delivery))
                }
            } else {
                throw UsageError("hearth \(name): no installation \(fid) in \(projectID)")
            }
        case ("installations", "delete"):
            let fid = try positional("FID")
            let now = clock.nowMilliseconds()
            // The same deletion core as the API; a running server's sender picks the
            // queued webhooks up on its next poll.
            let outcome = try store.write { transaction in
                try InstallationDeletion.delete(
                    projectID: projectID,
                    fid: fid,
                    cause: .admin,
                    now: now,
                    in: transaction
                )
            }
            switch outcome {
            case .deleted: print("deleted \(fid)")
            case .alreadyDeleted(let tombstone):
                throw UsageError(
                    "hearth \(name): \(fid) was already deleted at \(Timestamp.iso8601(milliseconds: tombstone.deletedMilliseconds))"
                )
            case .notFound: throw UsageError("hearth \(name): no installation \(fid) in \(projectID)")
            }
        case ("webhooks", "list"):
            for hook in try store.read({ try $0.installationWebhooks(projectID: projectID) }) {
                print(
                    [
                        hook.webhookID, RedactedURL(hook.url).description,
                        Timestamp.iso8601(milliseconds: hook.createdMilliseconds),
                        hook.description,
                    ].joined(separator: "\t")
                )
            }
        case ("webhooks", "add"):
            let masterKey = try stored.masterKey(environment: environment, command: name)
            let webhooks = InstallationWebhooks(store: store, clock: clock, masterKey: masterKey)
            do {
                let (record, secret) = try webhooks.add(
                    projectID: projectID,
                    url: try parsed.required("url", command: name),
                    secret: parsed.value("secret"),
                    description: parsed.value("description") ?? ""
                )
                print("\(record.webhookID)\t\(secret)")
                HearthCommand.writeError("webhook \(record.webhookID) subscribed; its secret is shown only this once")
            } catch let error as InstallationError {
                throw UsageError("hearth \(name): \(error)")
            }
        case ("webhooks", "remove"):
            let id = try positional("webhook ID")
            guard try store.write({ try $0.deleteInstallationWebhook(projectID: projectID, id: id) }) else {
                throw UsageError("hearth \(name): no webhook \(id) in \(projectID)")
            }
            print("removed \(id)")
        case ("webhooks", "deliveries"):
            let stateName = parsed.value("state") ?? "pending"
            guard let state = InstallationDeliveryRecord.State(rawValue: stateName) else {
                throw UsageError("hearth \(name): --state must be pending, delivered or failed")
            }
            let deliveries = try store.read {
                try $0.installationDeliveries(projectID: projectID, state: state, after: nil, limit: limit)
            }
            for delivery in deliveries { print(describe(delivery)) }
        default:
            throw UsageError("hearth: unknown command \"\(name)\" (see hearth --help)")
        }
        return 0
    }

    private static func describe(_ delivery: InstallationDeliveryRecord) -> String {
        var fields = [delivery.webhookID, delivery.fid, delivery.state.rawValue, "attempts=\(delivery.attempts)"]
        if delivery.state == .pending {
            fields.append("next=\(Timestamp.iso8601(milliseconds: delivery.nextAttemptMilliseconds))")
        }
        if let status = delivery.lastStatus { fields.append("lastStatus=\(status)") }
        if let error = delivery.lastError { fields.append("lastError=\(error)") }
        if let delivered = delivery.deliveredMilliseconds {
            fields.append("delivered=\(Timestamp.iso8601(milliseconds: delivered))")
        }
        return fields.joined(separator: "\t")
    }
}
