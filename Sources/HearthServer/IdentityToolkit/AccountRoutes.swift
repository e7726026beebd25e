import HearthBase
import HearthCore
import HearthCrypto
import HearthHTTP
import HearthStore
import HearthWire

extension HearthApplication {
    /// The account methods apps call with an API key (and admins with a credential):
    /// `accounts:signUp`, `accounts:signInWithPassword`, `accounts:lookup`, `accounts:update`,
    /// `accounts:delete`, `accounts:createAuthUri` and `GET /v1/projects`; and the phone sign-in
    /// methods, `accounts:sendVerificationCode` and `accounts:signInWithPhoneNumber`, which
    /// refuse every call (Hearth sends no SMS).
    func addAccountEndpoints(to endpoints: inout IdentityToolkitEndpoints) {
        endpoints.add("accounts:signUp", projectScoped: true, handler: identityToolkit { [self] in try signUp($0) })
        endpoints.add("accounts:signInWithPassword", handler: identityToolkit { [self] in try signIn($0) })
        endpoints.add("accounts:lookup", projectScoped: true, handler: identityToolkit { [self] in try lookup($0) })
        endpoints.add("accounts:update", projectScoped: true, handler: identityToolkit { [self] in try update($0) })
        endpoints.add("accounts:delete", projectScoped: true, handler: identityToolkit { [self] in try delete($0) })
        endpoints.add("accounts:createAuthUri", handler: identityToolkit { [self] in try createAuthURI($0) })
        endpoints.add("projects", [.get, .post], handler: identityToolkit { [self] in try projectConfig($0) })
        for method in ["accounts:sendVerificationCode", "accounts:signInWithPhoneNumber"] {
            endpoints.add(method, handler: identityToolkit { [self] in try refusePhoneSignIn($0) })
        }
    }

    /// A phone sign-in method: `OPERATION_NOT_ALLOWED` for every caller the project knows, as
    /// Firebase answers when a project has the phone provider switched off.
    func refusePhoneSignIn(_ request: IdentityToolkitRequest) throws -> Response {
        _ = try caller(of: request)
        throw AuthError.phoneSignInNotAllowed
    }

    /// `accounts:signUp`: a new email/password account, signed in. From an admin, the same as
    /// creating an account (`POST /v1/projects/{p}/accounts`).
    func signUp(_ request: IdentityToolkitRequest) throws -> Response {
        let caller = try caller(of: request)
        try Self.refuseTenant(request)
        if caller.isAdmin { return try createAccount(request, project: caller.project) }
        if request.has("idToken") {
            throw AuthError(
                .operationNotAllowed,
                "Linking an email and password to an existing account is not supported."
            )
        }
        typealias Field = SignUpRequest.CodingKeys
        let signedIn = try accounts.signUp(
            project: caller.project,
            email: request.string(Field.email),
            password: request.string(Field.password),
            displayName: request.string(Field.displayName),
            language: request.request.headers["x-firebase-locale"],
            clientAddress: request.request.remoteAddress
        )
        return .wire(AccountJSON.signUpResponse(signedIn.account, tokens: signedIn.tokens))
    }

    /// `accounts:signInWithPassword` (legacy `verifyPassword`). Answered later: the password's
    /// hash runs on the hashing threads and the session's write in a group commit, while this
    /// thread serves other requests.
    func signIn(_ request: IdentityToolkitRequest) throws -> Response {
        let caller = try caller(of: request)
        try Self.refuseTenant(request)
        typealias Field = SignInWithPasswordRequest.CodingKeys
        let prepared = try accounts.prepareSignIn(
            project: caller.project,
            email: request.string(Field.email),
            password: request.string(Field.password),
            clientAddress: request.request.remoteAddress
        )
        return .deferred { [self] promise in
            prepared.run { [self] result in
                switch result {
                case .success(let signedIn): promise.succeed(Self.signInResponse(signedIn))
                case .failure(let error): promise.succeed(errorResponse(error))
                }
            }
        }
    }

    /// The `VerifyPasswordResponse`: `email` and `displayName` always present (empty when
    /// unset), as Google answers them.
    private static func signInResponse(_ signedIn: AccountService.SignedIn) -> Response {
        let account = signedIn.account
        return .wire(
            SignInResponse(
                kind: "identitytoolkit#VerifyPasswordResponse",
                localID: account.localID,
                email: account.email ?? "",
                displayName: account.displayName ?? "",
                idToken: signedIn.tokens.idToken,
                refreshToken: signedIn.tokens.refreshToken,
                expiresIn: String(signedIn.tokens.expiresInSeconds),
                registered: true,
                profilePicture: account.photoURL
            )
        )
    }

    /// `accounts:lookup` (legacy `getAccountInfo`): the user of an ID token, or, for admins,
    /// the users with the given `localId`s, `email`s and `phoneNumber`s. `users` is left out
    /// when nothing matches, as the Admin SDKs expect.
    func lookup(_ request: IdentityToolkitRequest) throws -> Response {
        let caller = try caller(of: request)
        try Self.refuseTenant(request)
        typealias Field = LookupRequest.CodingKeys
        let found: [AccountRecord]
        if let idToken = try request.string(Field.idToken) {
            found = [try accounts.authenticate(idToken: idToken, project: caller.project).0]
        } else if caller.isAdmin {
            let localIDs = try request.strings(Field.localID)
            let emails = try request.strings(Field.email)
            let phoneNumbers = try request.strings("phoneNumber")
            if localIDs.isEmpty && emails.isEmpty && phoneNumbers.isEmpty && !request.has("federatedUserId") {
                throw AuthError(.missingLocalID, "Give localId, email or idToken.")
            }
            // Federated IDs name no Hearth account: they simply match nothing.
            found = try accounts.lookup(
                project: caller.project,
                localIDs: localIDs,
                emails: emails,
                phoneNumbers: phoneNumbers
            )
        } else {
            throw AuthError(.missingIDToken)
        }
        return .wire(
            LookupResponse(
                kind: "identitytoolkit#GetAccountInfoResponse",
                users: found.isEmpty ? nil : found.map { AccountJSON.userRecord($0) }
            )
        )
    }

    /// `accounts:delete` (legacy `deleteAccount`): the user of an ID token, or an admin's `localId`.
    func delete(_ request: IdentityToolkitRequest) throws -> Response {
        let caller = try caller(of: request)
        try Self.refuseTenant(request)
        typealias Field = DeleteAccountRequest.CodingKeys
        let localID: String
        if let idToken = try request.string(Field.idToken) {
            localID = try accounts.authenticate(idToken: idToken, project: caller.project).0.localID
        } else if caller.isAdmin {
            guard let given = try request.string(Field.localID), !given.isEmpty else {
                throw AuthError(.missingLocalID)
            }
            localID = given
        } else {
            throw AuthError(.missingIDToken)
        }
        try accounts.delete(project: caller.project, localID: localID)
        return .wire(DeleteAccountResponse(kind: "identitytoolkit#DeleteAccountResponse"))
    }

    /// `accounts:createAuthUri` (legacy `createAuthUri`), which the SDKs use to ask how an
    /// email signs in. With email-enumeration protection (the default) an app learns nothing:
    /// known and unknown emails get the same answer, without sign-in methods. Admins, who can
    /// look accounts up anyway, always get the full answer.
    func createAuthURI(_ request: IdentityToolkitRequest) throws -> Response {
        let caller = try caller(of: request)
        try Self.refuseTenant(request)
        guard let identifier = try request.string("identifier") ?? request.string("email"), !identifier.isEmpty
        else { throw AuthError(.missingIdentifier) }
        guard EmailAddress.normalized(identifier) != nil else { throw AuthError(.invalidIdentifier) }
        let account = try accounts.account(project: caller.project, email: identifier)
        var object = JSONObject()
        object["kind"] = "identitytoolkit#CreateAuthUriResponse"
        if caller.isAdmin || !caller.project.settings.emailEnumerationProtection {
            object["registered"] = .bool(account != nil)
            if let account {
                object["allProviders"] = .array(account.providerIDs.map { .string($0) })
                object["signinMethods"] = .array(account.signInMethods.map { .string($0) })
            }
        }
        object["sessionId"] = .string(Base64URL.encode(SecureRandom.bytes(count: 18)))
        return .json(.object(object))
    }

    /// `GET /v1/projects` (legacy `getProjectConfig`): the authorized domains. `projectId` is
    /// the project number, as Google answers it.
    func projectConfig(_ request: IdentityToolkitRequest) throws -> Response {
        let project = try caller(of: request).project
        return .wire(
            ProjectConfigResponse(
                projectID: project.number,
                authorizedDomains: project.authorizedDomains,
                kind: "identitytoolkit#GetProjectConfigResponse"
            )
        )
    }

    /// Hearth has no Identity Platform tenants; naming one is an error, not silently ignored.
    static func refuseTenant(_ request: IdentityToolkitRequest) throws {
        if let tenant = try request.string("tenantId"), !tenant.isEmpty {
            throw AuthError(.operationNotAllowed, "Tenants are not supported.")
        }
    }
}
