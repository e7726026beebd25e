/// The result of a sign-in or sign-up: the signed-in user and what the call revealed.
public struct AuthDataResult: Sendable {
    /// The user now signed in (``Auth/currentUser``).
    public let user: User
    /// Facts about this sign-in, such as whether it created the account.
    public let additionalUserInfo: AdditionalUserInfo?
}

/// Facts about one sign-in.
public struct AdditionalUserInfo: Sendable {
    /// The provider that signed the user in: `password` for email and password and for email
    /// links (Firebase reports `password` for both).
    public let providerID: String
    /// Whether this sign-in created the account.
    public let isNewUser: Bool
}

/// What an action code is for and whom it concerns (``Auth/checkActionCode(_:)``).
public struct ActionCodeInfo: Sendable {
    /// The action the code performs.
    public let operation: ActionCodeOperation
    /// The email the code concerns; for an email change, the new address.
    public let email: String
    /// For an email change or its recovery, the address before the change.
    public let previousEmail: String?
}
