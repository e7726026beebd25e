extension Schema {
    /// The installations area's steps (versions in its range; see `Schema`).
    static let installations: [Migration] = []
}
