extension Argon2id {
    /// The salt inside a PHC string (`$argon2id$v=19$m=…,t=…,p=…$<salt>$<hash>`), decoded; `nil`
    /// for a string `verify` would not accept.
    public static func salt(ofPHC phc: String) -> [UInt8]? {
        PHCString(parsing: phc)?.salt
    }
}
