import HearthBase
import HearthCore
import HearthHTTP
import HearthStore
import HearthWire

extension HearthApplication {
    /// The admin-only account methods: create (`POST /v1/projects/{p}/accounts`),
    /// `accounts:batchGet` (paged listing) and `accounts:batchDelete`. The project-scoped forms
    /// of lookup, update and delete are registered with the app methods.
    func addAdminAccountEndpoints(to endpoints: inout IdentityToolkitEndpoints) {
        endpoints.add(
            "accounts",
            projectScoped: true,
            handler: identityToolkit { [self] request in
                let caller = try caller(of: request, adminOnly: true)
                return try createAccount(request, project: caller.project)
            }
        )
        endpoints.add(
            "accounts:batchGet",
            [.get],
            projectScoped: true,
            handler: identityToolkit { [self] in
                try batchGet($0)
            }
        )
        endpoints.add(
            "accounts:batchDelete",
            projectScoped: true,
            handler: identityToolkit { [self] in
                try batchDelete($0)
            }
        )
    }

    /// Creates an account from an admin's request: `localId`, `email`, `phoneNumber`,
    /// `password`, `displayName`, `photoUrl`, `emailVerified`, `disabled`. Answers `localId`
    /// (which the Admin SDKs require) without tokens.
    func createAccount(_ request: IdentityToolkitRequest, project: Project) throws -> Response {
        try Self.refuseTenant(request)
        typealias Field = CreateAccountRequest.CodingKeys
        var draft = AccountDraft()
        draft.localID = try request.string(Field.localID)
        draft.email = try request.string(Field.email)
        // An empty number is no number, as Firebase reads it.
        draft.phoneNumber = try request.string("phoneNumber").flatMap { $0.isEmpty ? nil : $0 }
        draft.password = try request.string(Field.password)
        draft.displayName = try request.string(Field.displayName)
        draft.photoURL = try request.string("photoUrl")
        draft.emailVerified = try request.bool(Field.emailVerified) ?? false
        draft.disabled = try request.bool(Field.disabled) ?? false
        let account = try accounts.create(project: project, draft: draft)
        return .wire(AccountJSON.signUpResponse(account, tokens: nil))
    }

    /// `accounts:batchGet`: one page of the project's users, ordered by ID, with their password
    /// hashes and salts (``ExportedPassword``), as Firebase's download gives them to admins.
    /// `maxResults` is 1 to 1000 (default 20); `nextPageToken` continues a listing.
    func batchGet(_ request: IdentityToolkitRequest) throws -> Response {
        let caller = try caller(of: request, adminOnly: true)
        let maxResults = try request.int64("maxResults") ?? 20
        guard (1...1_000).contains(maxResults) else {
            throw GoogleAPIError.invalidArgument("maxResults must be between 1 and 1000")
        }
        let (found, next) = try accounts.list(
            project: caller.project,
            pageToken: try request.string("nextPageToken"),
            maxResults: Int(maxResults)
        )
        return .wire(
            BatchGetAccountsResponse(
                kind: "identitytoolkit#DownloadAccountResponse",
                users: found.isEmpty ? nil : found.map { AccountJSON.userRecord($0, passwordHashes: .exported) },
                nextPageToken: next
            )
        )
    }

    /// `accounts:batchDelete`: deletes up to 1000 users; without `force`, only disabled ones,
    /// reporting the others in `errors`.
    func batchDelete(_ request: IdentityToolkitRequest) throws -> Response {
        let caller = try caller(of: request, adminOnly: true)
        let localIDs = try request.strings("localIds")
        guard localIDs.count <= 1_000 else {
            throw GoogleAPIError.invalidArgument("localIds may name at most 1000 users")
        }
        let failures = try accounts.batchDelete(
            project: caller.project,
            localIDs: localIDs,
            force: try request.bool("force") ?? false
        )
        var object = JSONObject()
        object["kind"] = "identitytoolkit#BatchDeleteAccountsResponse"
        if !failures.isEmpty {
            object["errors"] = .array(
                failures.map { failure in
                    .object([
                        "index": .int(Int64(failure.index)), "localId": .string(failure.localID),
                        "message": .string(failure.message),
                    ])
                }
            )
        }
        return .json(.object(object))
    }
}
