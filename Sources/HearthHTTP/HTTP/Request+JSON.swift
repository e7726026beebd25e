public import HearthBase

extension Request {
    /// The body parsed as JSON; an empty body reads as `{}` (Google APIs accept an omitted body
    /// for requests whose fields are all optional).
    ///
    /// - Throws: a 400 `INVALID_ARGUMENT` ``GoogleAPIError`` saying where the JSON broke.
    public func jsonBody() throws(GoogleAPIError) -> JSONValue {
        if body.isEmpty || body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return .object(JSONObject())
        }
        do {
            return try JSONValue.parse(body)
        } catch {
            throw GoogleAPIError(
                code: .badRequest,
                message: "Invalid JSON payload received. \(error.description)",
                status: .invalidArgument
            )
        }
    }
}
