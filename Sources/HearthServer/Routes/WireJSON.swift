import HearthBase
import HearthHTTP
import HearthWire

// The server reads requests with `RequestFields` (lenient: null is absent, names fold case
// and underscores) and writes answers with `JSONWriter`; both go through HearthWire's
// `CodingKeys`, so the routes and the SDKs' `Codable` types name every field the same way.

extension RequestFields {
    /// The string at a HearthWire field.
    func string(_ key: some CodingKey) throws(GoogleAPIError) -> String? { try string(key.stringValue) }

    /// The Boolean at a HearthWire field.
    func bool(_ key: some CodingKey) throws(GoogleAPIError) -> Bool? { try bool(key.stringValue) }

    /// The object at a HearthWire field.
    func object(_ key: some CodingKey) throws(GoogleAPIError) -> RequestFields? { try object(key.stringValue) }
}

extension JSONWriter {
    /// Writes the name of a HearthWire field.
    mutating func key(_ key: some CodingKey) { self.key(key.stringValue) }
}

extension InstallationAuthToken {
    /// `{token, expiresIn}`.
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(CodingKeys.token)
        writer.string(token)
        writer.key(CodingKeys.expiresIn)
        writer.string(expiresIn)
        writer.endObject()
    }
}

extension CreateInstallationResponse {
    /// `{name, fid, refreshToken, authToken: {token, expiresIn}}`.
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(CodingKeys.name)
        writer.string(name)
        writer.key(CodingKeys.fid)
        writer.string(fid)
        writer.key(CodingKeys.refreshToken)
        writer.string(refreshToken)
        writer.key(CodingKeys.authToken)
        authToken.write(to: &writer)
        writer.endObject()
    }
}

extension RefreshTokenResponse {
    /// The snake_case fields Google sends, then their camelCase twins for clients that read those.
    func write(to writer: inout JSONWriter) {
        let fields: [(key: CodingKeys, twin: String, value: String?)] = [
            (.accessToken, "accessToken", accessToken),
            (.expiresIn, "expiresIn", expiresIn),
            (.tokenType, "tokenType", tokenType),
            (.refreshToken, "refreshToken", refreshToken),
            (.idToken, "idToken", idToken),
            (.userID, "userId", userID),
            (.projectID, "projectId", projectID),
        ]
        writer.beginObject()
        for field in fields {
            guard let value = field.value else { continue }
            writer.key(field.key)
            writer.string(value)
        }
        for field in fields {
            guard let value = field.value else { continue }
            writer.key(field.twin)
            writer.string(value)
        }
        writer.endObject()
    }
}
