/// Why an installation call was refused. The HTTP layer renders each case in the Google
/// error envelope with the status Firebase clients act on (401 and 404 make them start over
/// with a new FID).
public enum InstallationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request is malformed: a missing or badly typed field, a value out of range.
    case invalidArgument(String)
    /// The app ID is not an app of the project.
    case appNotInProject(String)
    /// No live installation with this FID in the project (never made, or deleted).
    case notFound
    /// The refresh token is missing, malformed or not the installation's.
    case invalidRefreshToken
    /// The installation was deleted before (server-side deletion answers 409).
    case alreadyDeleted
    /// An installation token that does not verify: bad signature, wrong project, malformed.
    case invalidToken(String)
    /// An installation token past its `exp`.
    case tokenExpired
    /// A well-signed token of an installation that no longer exists.
    case installationDeleted
    /// No webhook subscription with this ID in the project.
    case webhookNotFound

    public var description: String {
        switch self {
        case .invalidArgument(let message): message
        case .appNotInProject(let appID): "App \(appID) does not belong to this project."
        case .notFound: "Installation not found."
        case .invalidRefreshToken: "Invalid refresh token."
        case .alreadyDeleted: "Installation already deleted."
        case .invalidToken(let reason): "Invalid installation token: \(reason)."
        case .tokenExpired: "Installation token expired."
        case .installationDeleted: "The installation of this token was deleted."
        case .webhookNotFound: "Webhook subscription not found."
        }
    }
}
