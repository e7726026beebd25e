extension Schema {
    /// The mail area's steps (versions in its range; see `Schema`).
    static let mail: [Migration] = []
}
