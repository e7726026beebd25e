extension Schema {
    /// The emailActions area's steps (versions in its range; see `Schema`).
    static let emailActions: [Migration] = []
}
