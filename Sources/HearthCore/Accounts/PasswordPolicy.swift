public import HearthCrypto

/// What a new password must be, and how passwords are hashed and checked.
///
/// Firebase's rule is at least 6 characters; Hearth also caps the length so that one request
/// cannot feed megabytes into the hash.
public enum PasswordPolicy {
    public static let minimumCharacters = 6
    public static let maximumBytes = 4_096

    /// Refuses a password that breaks the policy.
    public static func validate(_ password: String) throws(AuthError) {
        if password.unicodeScalars.count < minimumCharacters { throw .weakPassword }
        if password.utf8.count > maximumBytes {
            throw AuthError(
                .passwordDoesNotMeetRequirements,
                "Password must be at most \(maximumBytes) bytes"
            )
        }
    }
}

/// Hashes and checks passwords. The product uses ``Argon2PasswordHasher``; the protocol exists
/// so that tests can count how many verifications a sign-in spends.
public protocol PasswordHasher: Sendable {
    /// A storable hash (PHC string) of `password`.
    func hash(_ password: String) -> String
    /// Whether `password` matches `storedHash`.
    func verify(_ password: String, against storedHash: String) -> Bool
    /// Spends the work of one `verify` without any account, so that an unknown email costs
    /// the same time as a known one.
    func verifyAgainstDummy(_ password: String)
}

/// Argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane): about 50 ms of one core per
/// hash or verification, on the calling thread.
public struct Argon2PasswordHasher: PasswordHasher {
    public let parameters: Argon2id

    public init(parameters: Argon2id = Argon2id()) {
        self.parameters = parameters
    }

    public func hash(_ password: String) -> String {
        parameters.hash(password: password)
    }

    public func verify(_ password: String, against storedHash: String) -> Bool {
        Argon2id.verify(password: password, phc: storedHash)
    }

    public func verifyAgainstDummy(_ password: String) {
        Argon2id.verifyAgainstDummy(password: password, parameters: parameters)
    }
}
