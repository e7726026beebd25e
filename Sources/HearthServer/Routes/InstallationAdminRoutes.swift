import HearthBase
import HearthCore
import HearthCrypto
import HearthHTTP
import HearthStore
import HearthWire

/// Server-side installation calls, admin-authenticated (`Authorization: Bearer ...`):
///
/// * `POST /v1/projects/{p}/installations:verifyToken` `{token}` — the online token check.
/// * `DELETE /v1/project/{p}/instanceId/{fid}` — the Admin SDKs' deletion of an FID or a
///   migrated legacy Instance ID: 200, 404, 409; 400 for an ID of neither shape.
/// * under `/hearth/v1/projects/{p}/`: `installations` (list), `installations/{fid}` (show,
///   live or deleted), `installationTombstones` (deletions with each subscriber's delivery
///   state), `installationDeliveries` (`?state=pending|delivered|failed`), and
///   `installationWebhooks` (subscribe with POST `{url, secret?, description?}`, list, and
///   DELETE `installationWebhooks/{id}`).
///
/// Lists take `pageSize` (1–1000, default 100) and `pageToken`, and answer `nextPageToken`
/// while more remain.
extension HearthApplication {
    func addInstallationAdminRoutes(to router: inout Router) {
        router.post("/v1/projects/{project}/installations:verifyToken") { [self] request in
            let project = try projectOrNotFound(request)
            try requireAdmin(request, project: project)
            let token = try withoutErrorsList { () throws(GoogleAPIError) in
                guard let token = try RequestFields(jsonBodyOf: request).string("token"), !token.isEmpty else {
                    throw GoogleAPIError.invalidArgument("token is required.")
                }
                return token
            }
            let verified = try answeringInstallationErrors {
                try installations.registry.verify(token: token, project: project)
            }
            return .wire(
                VerifyInstallationTokenResponse(
                    fid: verified.fid,
                    appID: verified.appID,
                    projectNumber: verified.projectNumber,
                    expireTime: Timestamp.iso8601(milliseconds: verified.expiresAt * 1_000),
                    exp: verified.expiresAt,
                    iat: verified.issuedAt
                )
            )
        }

        router.delete("/v1/project/{project}/instanceId/{fid}") { [self] request in
            let project = try projectOrNotFound(request)
            try requireAdmin(request, project: project)
            let fid = request.pathParameters["fid"] ?? ""
            // The Instance ID service's words, which the Admin SDKs also show for each status.
            guard FID.isInstallationID(fid) else {
                throw GoogleAPIError.invalidArgument("Malformed instance ID argument.").withoutErrorsList()
            }
            do {
                try installations.registry.deleteAsAdmin(project: project, fid: fid)
            } catch InstallationError.notFound {
                throw GoogleAPIError.notFound("Failed to find the instance ID.").withoutErrorsList()
            } catch InstallationError.alreadyDeleted {
                throw GoogleAPIError(code: .conflict, message: "Already deleted.", status: .alreadyExists)
                    .withoutErrorsList()
            }
            return .json(bytes: Array("{}".utf8))
        }

        router.get("/hearth/v1/projects/{project}/installations") { [self] request in
            let project = try projectOrNotFound(request)
            try requireAdmin(request, project: project)
            let size = try pageSize(request)
            let after = try pageToken(request).first ?? ""
            let projectID = project.id
            let page = try store.read { try $0.installations(projectID: projectID, afterFID: after, limit: size + 1) }
            var object: JSONObject = ["installations": .array(page.prefix(size).map(installationJSON))]
            if page.count > size, let last = page.prefix(size).last {
                object["nextPageToken"] = .string(encodePageToken([last.fid]))
            }
            return .json(.object(object))
        }

        router.get("/hearth/v1/projects/{project}/installations/{fid}") { [self] request in
            let project = try projectOrNotFound(request)
            try requireAdmin(request, project: project)
            let fid = request.pathParameters["fid"] ?? ""
            let registry = installations.registry
            if let record = try registry.installation(project: project, fid: fid) {
                return .json(installationJSON(record))
            }
            guard let tombstone = try registry.tombstone(project: project, fid: fid) else {
                throw InstallationError.notFound.apiError
            }
            let projectID = project.id
            let deliveries = try store.read { try $0.installationDeliveries(projectID: projectID, fid: fid) }
            return .json(tombstoneJSON(tombstone, deliveries: deliveries))
        }

        router.get("/hearth/v1/projects/{project}/installationTombstones") { [self] request in
            let project = try projectOrNotFound(request)
            try requireAdmin(request, project: project)
            let size = try pageSize(request)
            let token = try pageToken(request)
            var position: (Int64, String)?
            if !token.isEmpty {
                guard token.count == 2, let milliseconds = Int64(token[0]) else { throw badPageToken }
                position = (milliseconds, token[1])
            }
            let projectID = project.id
            let (page, deliveries) = try store.read { transaction in
                let page = try transaction.installationTombstones(
                    projectID: projectID,
                    after: position,
                    limit: size + 1
                )
                let shown = page.prefix(size)
                return (
                    page,
                    try shown.map { try transaction.installationDeliveries(projectID: projectID, fid: $0.fid) }
                )
            }
            let shown = page.prefix(size)
            var object: JSONObject = [
                "tombstones": .array(zip(shown, deliveries).map { tombstoneJSON($0, deliveries: $1) })
            ]
            if page.count > size, let last = shown.last {
                object["nextPageToken"] = .string(encodePageToken([String(last.deletedMilliseconds), last.fid]))
            }
            return .json(.object(object))
        }

        router.get("/hearth/v1/projects/{project}/installationDeliveries") { [self] request in
            let project = try projectOrNotFound(request)
            try requireAdmin(request, project: project)
            let size = try pageSize(request)
            var state: InstallationDeliveryRecord.State?
            if let name = request.query["state"], !name.isEmpty {
                guard let parsed = InstallationDeliveryRecord.State(rawValue: name) else {
                    throw GoogleAPIError.invalidArgument("state must be pending, delivered or failed.")
                        .withoutErrorsList()
                }
                state = parsed
            }
            let token = try pageToken(request)
            var position: (Int64, String, String)?
            if !token.isEmpty {
                guard token.count == 3, let milliseconds = Int64(token[0]) else { throw badPageToken }
                position = (milliseconds, token[1], token[2])
            }
            let projectID = project.id
            let page = try store.read {
                try $0.installationDeliveries(projectID: projectID, state: state, after: position, limit: size + 1)
            }
            let shown = page.prefix(size)
            var object: JSONObject = ["deliveries": .array(shown.map { deliveryJSON($0, withFID: true) })]
            if page.count > size, let last = shown.last {
                object["nextPageToken"] = .string(
                    encodePageToken([String(last.createdMilliseconds), last.webhookID, last.fid])
                )
            }
            return .json(.object(object))
        }

        router.post("/hearth/v1/projects/{project}/installationWebhooks") { [self] request in
            let project = try projectOrNotFound(request)
            try requireAdmin(request, project: project)
            let (url, secret, description) = try withoutErrorsList { () throws(GoogleAPIError) in
                let fields = try RequestFields(jsonBodyOf: request)
                guard let url = try fields.string("url") else {
                    throw GoogleAPIError.invalidArgument("url is required.")
                }
                return (url, try fields.string("secret"), try fields.string("description") ?? "")
            }
            let (record, issuedSecret) = try answeringInstallationErrors {
                try installations.webhooks.add(
                    projectID: project.id,
                    url: url,
                    secret: secret,
                    description: description
                )
            }
            var object = webhookJSON(record)
            object["secret"] = .string(issuedSecret)
            return .json(.object(object))
        }

        router.get("/hearth/v1/projects/{project}/installationWebhooks") { [self] request in
            let project = try projectOrNotFound(request)
            try requireAdmin(request, project: project)
            let hooks = try installations.webhooks.list(projectID: project.id)
            return .json(.object(["webhooks": .array(hooks.map { .object(webhookJSON($0)) })]))
        }

        router.delete("/hearth/v1/projects/{project}/installationWebhooks/{webhook}") { [self] request in
            let project = try projectOrNotFound(request)
            try requireAdmin(request, project: project)
            try answeringInstallationErrors {
                try installations.webhooks.remove(
                    projectID: project.id,
                    webhookID: request.pathParameters["webhook"] ?? ""
                )
            }
            return .json(bytes: Array("{}".utf8))
        }
    }
}

// MARK: - Rendering

private func installationJSON(_ record: InstallationRecord) -> JSONValue {
    [
        "fid": .string(record.fid),
        "appId": .string(record.appID),
        "state": "ACTIVE",
        "sdkVersion": .string(record.sdkVersion),
        "createTime": .string(Timestamp.iso8601(milliseconds: record.createdMilliseconds)),
        "lastSeenTime": .string(Timestamp.iso8601(milliseconds: record.lastSeenMilliseconds)),
    ]
}

private func tombstoneJSON(_ tombstone: InstallationTombstoneRecord, deliveries: [InstallationDeliveryRecord])
    -> JSONValue
{
    [
        "fid": .string(tombstone.fid),
        "appId": .string(tombstone.appID),
        "state": "DELETED",
        "deleteTime": .string(Timestamp.iso8601(milliseconds: tombstone.deletedMilliseconds)),
        "cause": .string(tombstone.cause),
        "deliveries": .array(deliveries.map { deliveryJSON($0, withFID: false) }),
    ]
}

private func deliveryJSON(_ delivery: InstallationDeliveryRecord, withFID: Bool) -> JSONValue {
    var object: JSONObject = ["webhookId": .string(delivery.webhookID)]
    if withFID { object["fid"] = .string(delivery.fid) }
    object["state"] = .string(delivery.state.rawValue)
    object["attempts"] = .int(Int64(delivery.attempts))
    if let at = delivery.lastAttemptMilliseconds {
        object["lastAttemptTime"] = .string(Timestamp.iso8601(milliseconds: at))
    }
    if let status = delivery.lastStatus { object["lastStatus"] = .int(Int64(status)) }
    if let error = delivery.lastError { object["lastError"] = .string(error) }
    if delivery.state == .pending {
        object["nextAttemptTime"] = .string(Timestamp.iso8601(milliseconds: delivery.nextAttemptMilliseconds))
    }
    if let at = delivery.deliveredMilliseconds { object["deliverTime"] = .string(Timestamp.iso8601(milliseconds: at)) }
    return .object(object)
}

private func webhookJSON(_ record: InstallationWebhookRecord) -> JSONObject {
    [
        "webhookId": .string(record.webhookID),
        "url": .string(record.url),
        "description": .string(record.description),
        "createTime": .string(Timestamp.iso8601(milliseconds: record.createdMilliseconds)),
    ]
}

// MARK: - Paging

private let badPageToken = GoogleAPIError.invalidArgument("pageToken is not valid.").withoutErrorsList()

private func pageSize(_ request: Request) throws(GoogleAPIError) -> Int {
    guard let text = request.query["pageSize"] ?? request.query["page_size"], !text.isEmpty else { return 100 }
    guard let size = Int(text), (1...1_000).contains(size) else {
        throw GoogleAPIError.invalidArgument("pageSize must be from 1 to 1000.").withoutErrorsList()
    }
    return size
}

/// The parts of the request's `pageToken` (empty for the first page). A token is the
/// base64url of the previous page's last position, parts separated by newlines.
private func pageToken(_ request: Request) throws(GoogleAPIError) -> [String] {
    guard let token = request.query["pageToken"] ?? request.query["page_token"], !token.isEmpty else { return [] }
    guard let bytes = Base64URL.decode(token), let text = String(validating: bytes, as: UTF8.self) else {
        throw badPageToken
    }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

private func encodePageToken(_ parts: [String]) -> String {
    Base64URL.encode(Array(parts.joined(separator: "\n").utf8))
}
