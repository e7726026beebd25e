public import HearthCore
public import HearthHTTP

/// An `InstallationError` delivered to a deferred answer is written in the FIS envelope.
extension InstallationError: HTTPResponseError {
    public func response() -> Response { apiError.response() }
}

extension InstallationError {
    /// The error in the Google envelope as Firebase Installations writes it: `code`,
    /// `message` and `status`, no `errors` list.
    var apiError: GoogleAPIError {
        let error: GoogleAPIError
        switch self {
        case .invalidArgument, .appNotInProject:
            error = .invalidArgument(description)
        case .notFound, .webhookNotFound:
            error = .notFound(description)
        case .invalidRefreshToken:
            error = .unauthenticated(description)
        case .alreadyDeleted:
            error = GoogleAPIError(code: .conflict, message: description, status: .alreadyExists)
        case .invalidToken:
            error = .invalidArgument("INVALID_INSTALLATION_TOKEN : \(description)")
        case .tokenExpired:
            error = .invalidArgument("INSTALLATION_TOKEN_EXPIRED : \(description)")
        case .installationDeleted:
            error = .invalidArgument("INSTALLATION_DELETED : \(description)")
        }
        return error.withoutErrorsList()
    }
}

/// Runs `body`, turning an `InstallationError` into its envelope (other errors stay 500s).
@discardableResult
func answeringInstallationErrors<Result>(_ body: () throws -> Result) throws -> Result {
    do {
        return try body()
    } catch let error as InstallationError {
        throw error.apiError
    }
}
