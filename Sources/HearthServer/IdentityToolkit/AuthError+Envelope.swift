public import HearthCore
public import HearthHTTP

/// An `AuthError` thrown anywhere in a route (or delivered to a deferred answer) is written
/// in the Identity Toolkit envelope.
extension AuthError: HTTPResponseError {
    public func response() -> Response { envelope.response() }

    /// The Identity Toolkit envelope for this error:
    /// `{"error":{"code":400,"message":"CODE : detail","errors":[{"message":…,"domain":"global","reason":"invalid"}]}}`.
    /// Business errors (400) carry no `status`, like Google's; other classes add theirs, as
    /// the Firebase emulator does. An invalid API key's reason is `keyInvalid`, which the Apple
    /// SDK recognises.
    var envelope: GoogleAPIError {
        let status = HTTPStatus(code: httpStatus)
        let reason = code == .apiKeyInvalid ? "keyInvalid" : nil
        let error = GoogleAPIError(code: status, message: message, status: Self.status(for: httpStatus), reason: reason)
        return (httpStatus == 400 ? error.withoutStatus() : error).retryingAfter(seconds: retryAfterSeconds)
    }

    private static func status(for httpStatus: Int) -> GoogleAPIError.Status {
        switch httpStatus {
        case 401: .unauthenticated
        case 403: .permissionDenied
        case 404: .notFound
        case 409: .alreadyExists
        case 429: .resourceExhausted
        case 501: .unimplemented
        case 500...: .internal
        default: .invalidArgument
        }
    }
}
