/// Password hashing with Argon2id (RFC 9106), stored as PHC strings.
///
/// The defaults are OWASP's minimum recommendation (19 MiB, 2 iterations, 1 lane); one hash takes a few tens of
/// milliseconds and 19 MiB of memory for its duration. Verification reads the parameters from the stored
/// string, so raising the cost later keeps old hashes working; `needsRehash` tells when to upgrade one after a
/// successful sign-in.
public struct Argon2id: Sendable, Hashable {
    /// Memory per hash in KiB.
    public var memoryKiB: UInt32
    /// Number of passes over the memory.
    public var iterations: UInt32
    /// Number of lanes.
    public var parallelism: UInt32

    /// The salt length written by `hash`.
    public static let saltByteCount = 16
    /// The tag length written by `hash`.
    public static let hashByteCount = 32

    public init(memoryKiB: UInt32 = 19_456, iterations: UInt32 = 2, parallelism: UInt32 = 1) {
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
    }

    /// Hashes a password with a fresh random 16-byte salt.
    /// - Returns: `$argon2id$v=19$m=…,t=…,p=…$<salt>$<hash>`.
    public func hash(password: some Collection<UInt8>) -> String {
        precondition(
            PHCString.parametersAreAcceptable(memoryKiB: memoryKiB, iterations: iterations, parallelism: parallelism),
            "Argon2id parameters out of range: \(self)"
        )
        let salt = SecureRandom.bytes(count: Self.saltByteCount)
        let tag = withContiguousBytes(of: password) { password in
            Self.rawHash(
                password: password,
                salt: salt,
                iterations: iterations,
                memoryKiB: memoryKiB,
                parallelism: parallelism,
                length: Self.hashByteCount
            )
        }
        // With parameters in range, the only failure left is running out of memory.
        guard let tag else {
            preconditionFailure("Argon2id hashing failed (out of memory?) with \(self)")
        }
        return PHCString(memoryKiB: memoryKiB, iterations: iterations, parallelism: parallelism, salt: salt, hash: tag)
            .encoded
    }

    /// Hashes the UTF-8 bytes of a password (no Unicode normalisation).
    public func hash(password: String) -> String {
        hash(password: password.utf8)
    }

    /// Whether `password` matches a PHC string, using the string's own parameters. Never throws: malformed
    /// strings, other Argon2 variants or versions, and parameters beyond the bounds (over 1 GiB of memory, over
    /// 32 iterations, over 64 lanes) are all `false`. The tag comparison is constant-time.
    public static func verify(password: some Collection<UInt8>, phc: String) -> Bool {
        guard let stored = PHCString(parsing: phc) else { return false }
        let tag = withContiguousBytes(of: password) { password in
            rawHash(
                password: password,
                salt: stored.salt,
                iterations: stored.iterations,
                memoryKiB: stored.memoryKiB,
                parallelism: stored.parallelism,
                length: stored.hash.count
            )
        }
        guard let tag else { return false }
        return constantTimeEquals(tag, stored.hash)
    }

    /// Whether the UTF-8 bytes of `password` match a PHC string (see `verify(password:phc:)` for bytes).
    public static func verify(password: String, phc: String) -> Bool {
        verify(password: password.utf8, phc: phc)
    }

    /// Whether a stored hash should be replaced by one with these parameters: true when it is unreadable, or
    /// its memory, iterations, lanes, salt length or tag length differ from what `hash` writes now.
    public func needsRehash(phc: String) -> Bool {
        guard let stored = PHCString(parsing: phc) else { return true }
        return stored.memoryKiB != memoryKiB || stored.iterations != iterations || stored.parallelism != parallelism
            || stored.salt.count != Self.saltByteCount || stored.hash.count != Self.hashByteCount
    }

    /// Spends the same work as one `verify` of a hash made with `parameters`, and returns nothing.
    ///
    /// Call it when a sign-in names an unknown account, so that the response time does not reveal whether the
    /// account exists.
    public static func verifyAgainstDummy(password: some Collection<UInt8>, parameters: Argon2id = Argon2id()) {
        let tag = withContiguousBytes(of: password) { password in
            rawHash(
                password: password,
                salt: dummySalt,
                iterations: parameters.iterations,
                memoryKiB: parameters.memoryKiB,
                parallelism: parameters.parallelism,
                length: hashByteCount
            )
        }
        // The comparison mirrors `verify`; its result is meaningless and discarded.
        _ = constantTimeEquals(tag ?? [], dummyTag)
    }

    /// Spends the same work as one `verify` of the UTF-8 bytes of `password` (see the byte overload).
    public static func verifyAgainstDummy(password: String, parameters: Argon2id = Argon2id()) {
        verifyAgainstDummy(password: password.utf8, parameters: parameters)
    }

    private static let dummySalt = [UInt8](repeating: 0x5A, count: saltByteCount)
    private static let dummyTag = [UInt8](repeating: 0, count: hashByteCount)
}
