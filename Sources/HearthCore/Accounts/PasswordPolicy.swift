public import HearthCrypto

/// What a new password must be, and how passwords are hashed and checked.
///
/// Firebase's rule is at least 6 characters; Hearth also caps the length so that one request
/// cannot feed megabytes into the hash.
public enum PasswordPolicy {
    public static let minimumCharacters = 6
    public static let maximumBytes = 4_096

    /// One rule of the policy, as a page lists it for people choosing a password.
    public enum Requirement: Sendable, Equatable {
        /// At least this many characters (Unicode scalars).
        case minimumCharacters(Int)
        /// At most this many bytes of UTF-8.
        case maximumBytes(Int)
    }

    /// Every rule ``validate(_:)`` enforces, in the order a person reads them.
    public static let requirements: [Requirement] = [
        .minimumCharacters(minimumCharacters), .maximumBytes(maximumBytes),
    ]

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
    /// `verify` against `storedHash`, or `verifyAgainstDummy` (answering `false`) when it is
    /// `nil`, without holding the calling thread: `completion` gets the answer on the thread
    /// that did the work.
    func verify(_ password: String, against storedHash: String?, completion: @escaping @Sendable (Bool) -> Void)
}

extension PasswordHasher {
    /// Does the work on the calling thread, then calls `completion`.
    public func verify(_ password: String, against storedHash: String?, completion: @escaping @Sendable (Bool) -> Void)
    {
        completion(verifyOrSpendDummy(password, against: storedHash))
    }

    fileprivate func verifyOrSpendDummy(_ password: String, against storedHash: String?) -> Bool {
        guard let storedHash else {
            verifyAgainstDummy(password)
            return false
        }
        return verify(password, against: storedHash)
    }
}

/// Argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane): about 30 ms of one core per
/// hash or verification, always on a thread of `pool` (the synchronous calls wait for it), so
/// no more hashes run at once than the pool has threads, and their memory is the pool's.
public struct Argon2PasswordHasher: PasswordHasher {
    public let parameters: Argon2id
    public let pool: PasswordHashingPool

    public init(parameters: Argon2id = Argon2id(), pool: PasswordHashingPool = .shared) {
        self.parameters = parameters
        self.pool = pool
    }

    public func hash(_ password: String) -> String {
        pool.run { [parameters] in parameters.hash(password: password) }
    }

    public func verify(_ password: String, against storedHash: String) -> Bool {
        pool.run { Argon2id.verify(password: password, phc: storedHash) }
    }

    public func verifyAgainstDummy(_ password: String) {
        pool.run { [parameters] in Argon2id.verifyAgainstDummy(password: password, parameters: parameters) }
    }

    public func verify(_ password: String, against storedHash: String?, completion: @escaping @Sendable (Bool) -> Void)
    {
        pool.submit { [self] in completion(verifyOrSpendDummy(password, against: storedHash)) }
    }
}
