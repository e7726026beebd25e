import HearthCrypto

/// A password hash as an admin's account download (`accounts:batchGet`, firebase-admin's
/// `list_users`) shows it, in the two base64 fields Firebase uses:
///
/// * `passwordHash`: standard base64 of the UTF-8 bytes of the stored Argon2id PHC string,
///   `$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>`. Decoded, it is the whole
///   hash with its parameters, which Argon2 libraries (libargon2, argon2-cffi, passlib, …)
///   verify a password against as it is, so a download can move users to another system.
/// * `salt`: standard base64 of the raw salt bytes (the salt is also inside the PHC string).
///
/// Firebase's own values are scrypt hashes readable only with the project's hash key; Hearth's
/// need none. Apps never see either: their lookups answer `passwordHash` as base64 of
/// `REDACTED`, as Firebase answers apps, and no salt.
public struct ExportedPassword: Sendable, Equatable {
    public var passwordHash: String
    /// Empty when the stored hash is not a PHC string Hearth reads (it never writes one).
    public var salt: String

    public init(storedHash: String) {
        passwordHash = Base64.encode(Array(storedHash.utf8))
        salt = Argon2id.salt(ofPHC: storedHash).map { Base64.encode($0) } ?? ""
    }
}
