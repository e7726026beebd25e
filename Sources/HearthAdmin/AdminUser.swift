public import Foundation
import HearthWire

/// A user of the project as an admin sees it.
public struct AdminUser: Sendable, Hashable {
    /// The user's ID (`localId`).
    public var uid: String
    /// The email address, if any.
    public var email: String?
    /// Whether the email address is verified.
    public var emailVerified: Bool
    /// The display name, if any.
    public var displayName: String?
    /// The photo URL, if any.
    public var photoURL: String?
    /// Whether the account is disabled (it cannot sign in, its tokens are refused).
    public var disabled: Bool
    /// When the account was made.
    public var creationTime: Date?
    /// When the user last signed in.
    public var lastSignInTime: Date?
    /// ID tokens issued before this instant are revoked (``AdminAuth/revokeRefreshTokens(uid:)``).
    public var tokensValidAfterTime: Date?
    /// The custom claims set on the account, copied into its ID tokens.
    public var customClaims: [String: ClaimValue]?

    /// The user a wire record describes.
    init(_ record: UserRecord) {
        uid = record.localID
        email = record.email
        emailVerified = record.emailVerified ?? false
        displayName = record.displayName
        photoURL = record.photoURL
        disabled = record.disabled ?? false
        creationTime = record.createdAt.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1_000) }
        lastSignInTime = record.lastLoginAt.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1_000) }
        tokensValidAfterTime = record.validSince.flatMap(Double.init).map { Date(timeIntervalSince1970: $0) }
        customClaims = record.customAttributes.flatMap {
            try? JSONDecoder().decode([String: ClaimValue].self, from: Data($0.utf8))
        }
    }
}

/// One page of ``AdminAuth/listUsers(maxResults:pageToken:)``.
public struct ListUsersPage: Sendable, Hashable {
    /// The users of this page, ordered by ID.
    public var users: [AdminUser]
    /// The token of the next page; `nil` on the last.
    public var pageToken: String?
}

extension AdminAuth {
    /// The properties of a new user; every one may be left out (the ID is then made by Hearth).
    public struct CreateRequest: Sendable, Hashable {
        /// The user's ID; Hearth makes one when `nil`.
        public var uid: String?
        /// The email address.
        public var email: String?
        /// The password (at least six characters).
        public var password: String?
        /// The display name.
        public var displayName: String?
        /// Whether the email address counts as verified.
        public var emailVerified: Bool?
        /// Whether the account starts disabled.
        public var disabled: Bool?

        /// A request with the given properties.
        public init(
            uid: String? = nil,
            email: String? = nil,
            password: String? = nil,
            displayName: String? = nil,
            emailVerified: Bool? = nil,
            disabled: Bool? = nil
        ) {
            self.uid = uid
            self.email = email
            self.password = password
            self.displayName = displayName
            self.emailVerified = emailVerified
            self.disabled = disabled
        }
    }

    /// The changes to a user; a property left `nil` stays as it is.
    public struct UpdateRequest: Sendable, Hashable {
        /// A new email address.
        public var email: String?
        /// A new password (ends the user's other sessions).
        public var password: String?
        /// A new display name.
        public var displayName: String?
        /// Marks the email address verified or not.
        public var emailVerified: Bool?
        /// Disables (ending the user's sessions) or enables the account.
        public var disabled: Bool?

        /// A request with the given changes.
        public init(
            email: String? = nil,
            password: String? = nil,
            displayName: String? = nil,
            emailVerified: Bool? = nil,
            disabled: Bool? = nil
        ) {
            self.email = email
            self.password = password
            self.displayName = displayName
            self.emailVerified = emailVerified
            self.disabled = disabled
        }
    }
}
