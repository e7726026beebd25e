import HearthBase
import HearthCore
import HearthHTTP
import HearthStore
import HearthWire

extension HearthApplication {
    /// The `requestType` enum of `accounts:sendOobCode`, in proto order (a client may send
    /// the number instead of the name).
    static let oobRequestTypes = [
        "OOB_REQ_TYPE_UNSPECIFIED", "PASSWORD_RESET", "OLD_EMAIL_AGREE", "NEW_EMAIL_ACCEPT", "VERIFY_EMAIL",
        "RECOVER_EMAIL", "EMAIL_SIGNIN", "VERIFY_AND_CHANGE_EMAIL", "REVERT_SECOND_FACTOR_ADDITION",
    ]

    /// `accounts:sendOobCode`, `accounts:resetPassword`, `accounts:signInWithEmailLink` (and
    /// their legacy names); `accounts:update` with an `oobCode` comes through
    /// `updateWithActionCode`.
    func addEmailActionEndpoints(to endpoints: inout IdentityToolkitEndpoints) {
        endpoints.add(
            "accounts:sendOobCode",
            projectScoped: true,
            handler: identityToolkit { [self] in try sendOobCode($0) }
        )
        endpoints.add("accounts:resetPassword", handler: identityToolkit { [self] in try resetPassword($0) })
        endpoints.add(
            "accounts:signInWithEmailLink",
            handler: identityToolkit { [self] in try signInWithEmailLink($0) }
        )
    }

    /// `accounts:sendOobCode` (legacy `getOobConfirmationCode`).
    func sendOobCode(_ request: IdentityToolkitRequest) throws -> Response {
        let caller = try caller(of: request)
        try Self.refuseTenant(request)
        guard let typeName = try request.enumValue("requestType", cases: Self.oobRequestTypes),
            typeName != "OOB_REQ_TYPE_UNSPECIFIED"
        else { throw AuthError(.missingRequestType) }
        guard let operation = ActionCodeOperation(exactRequestType: typeName) else {
            throw AuthError(.invalidRequestType, "\(typeName) codes cannot be requested.")
        }
        let project = caller.project
        let returnOobLink = try request.bool("returnOobLink") ?? false
        let send = try emailActions.sendOobCodeWrite(
            project: project,
            EmailActionService.Request(
                operation: operation,
                email: try request.string("email"),
                newEmail: try request.string("newEmail"),
                idToken: try request.string("idToken"),
                settings: try actionCodeSettings(request),
                returnOobLink: returnOobLink,
                caller: caller.isAdmin ? .admin : .client(clientAddress: request.request.remoteAddress),
                apiKey: request.apiKey ?? project.apiKeys.first ?? "",
                languages: languagePreferences(request)
            )
        )
        // The write (code, email, limits) is one durable group commit; the worker thread
        // serves other requests while it happens.
        return deferredWrite(send) { sent in
            .wire(
                SendOobCodeResponse(
                    kind: "identitytoolkit#GetOobConfirmationCodeResponse",
                    email: sent.email,
                    oobLink: sent.oobLink,
                    oobCode: sent.oobCode
                )
            )
        }
    }

    /// `accounts:resetPassword`: with only `oobCode` it says what the code is, without using
    /// it; with `newPassword` it uses a password-reset code.
    func resetPassword(_ request: IdentityToolkitRequest) throws -> Response {
        let caller = try caller(of: request)
        try Self.refuseTenant(request)
        let code = try request.string("oobCode") ?? ""
        let info: ActionCodeInfo
        if let newPassword = try request.string("newPassword") {
            info = try emailActions.resetPassword(project: caller.project, code: code, newPassword: newPassword)
        } else {
            info = try emailActions.inspect(project: caller.project, code: code)
        }
        return .wire(
            ResetPasswordResponse(
                kind: "identitytoolkit#ResetPasswordResponse",
                email: info.email,
                newEmail: info.newEmail,
                requestType: info.operation.requestType
            )
        )
    }

    /// `accounts:update` with an `oobCode`: verify the email, change it to the verified new
    /// address, or undo a change.
    func updateWithActionCode(_ request: IdentityToolkitRequest, caller: IdentityToolkitCaller) throws -> Response {
        let applied = try emailActions.apply(
            project: caller.project,
            code: try request.string("oobCode") ?? "",
            apiKey: request.apiKey ?? caller.project.apiKeys.first ?? ""
        )
        var response = AccountJSON.updateResponse(applied.account, tokens: nil)
        if applied.info.operation == .recoverEmail || applied.info.operation == .verifyAndChangeEmail {
            response.newEmail = applied.info.newEmail ?? ""
        }
        return .wire(response)
    }

    /// `accounts:signInWithEmailLink` (legacy `emailLinkSignin`).
    func signInWithEmailLink(_ request: IdentityToolkitRequest) throws -> Response {
        let caller = try caller(of: request)
        try Self.refuseTenant(request)
        if request.has("idToken") {
            throw AuthError(
                .operationNotAllowed,
                "Linking an email link to a signed-in user is not supported; sign in with the link instead."
            )
        }
        let signedIn = try emailActions.signIn(
            project: caller.project,
            email: try request.string("email") ?? "",
            code: try request.string("oobCode") ?? ""
        )
        let tokens = signedIn.tokens
        return .wire(
            SignInResponse(
                kind: "identitytoolkit#EmailLinkSigninResponse",
                localID: signedIn.account.localID,
                email: signedIn.account.email ?? "",
                idToken: tokens.idToken,
                refreshToken: tokens.refreshToken,
                expiresIn: String(tokens.expiresInSeconds),
                isNewUser: signedIn.isNewUser
            )
        )
    }

    /// The `ActionCodeSettings` fields of a `sendOobCode` body, by their wire names
    /// (`ActionCodeSettingsFields.CodingKeys`).
    private func actionCodeSettings(_ request: IdentityToolkitRequest) throws -> ActionCodeSettingsFields {
        typealias Field = ActionCodeSettingsFields.CodingKeys
        let fields = request.fields
        return ActionCodeSettingsFields(
            continueURL: try fields.string(Field.continueURL),
            canHandleCodeInApp: try fields.bool(Field.canHandleCodeInApp),
            iOSBundleID: try fields.string(Field.iOSBundleID),
            iOSAppStoreID: try fields.string(Field.iOSAppStoreID),
            androidPackageName: try fields.string(Field.androidPackageName),
            androidInstallApp: try fields.bool(Field.androidInstallApp),
            // Older Android SDKs name the minimum version by its version code.
            androidMinimumVersion: try fields.string(Field.androidMinimumVersion)
                ?? fields.string("androidMinimumVersionCode"),
            linkDomain: try fields.string(Field.linkDomain),
            dynamicLinkDomain: try fields.string(Field.dynamicLinkDomain)
        )
    }

    /// The language the caller asks for: `X-Firebase-Locale` or `languageCode`, then
    /// `Accept-Language` (the user's stored language is added by the service).
    private func languagePreferences(_ request: IdentityToolkitRequest) throws -> LanguagePreferences {
        let header = request.request.headers["x-firebase-locale"].flatMap { $0.isEmpty ? nil : $0 }
        return LanguagePreferences(
            explicit: try header ?? request.string("languageCode"),
            acceptLanguage: request.request.headers["accept-language"]
        )
    }
}
