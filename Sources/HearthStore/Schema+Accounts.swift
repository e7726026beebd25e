extension Schema {
    /// The accounts area's steps (versions in its range; see `Schema`).
    static let accounts: [Migration] = []
}
