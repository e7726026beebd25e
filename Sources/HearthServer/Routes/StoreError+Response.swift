public import HearthHTTP
public import HearthStore

extension StoreError: HTTPResponseError {
    /// How long a client is asked to wait (`Retry-After`) while the store cannot write.
    static let retryAfterSeconds = 5

    /// 503 `UNAVAILABLE` with `Retry-After` while the store cannot write (a full disk, a lock
    /// held too long), in the Google error envelope; any other store failure is a 500
    /// `INTERNAL`, logged by the router.
    public func response() -> Response {
        guard isUnavailable else { return GoogleAPIError.internal().response() }
        var response = GoogleAPIError(.unavailable, "UNAVAILABLE").response()
        response.headers.set("Retry-After", String(Self.retryAfterSeconds))
        return response
    }
}
