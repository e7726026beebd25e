/// A call Hearth refused, or one that got no usable answer.
///
/// `code` is the error code of Google's envelope (`USER_NOT_FOUND`, `EMAIL_EXISTS`,
/// `INVALID_CONTINUE_URI`, …) when the message carries one, else the envelope's canonical
/// status (`NOT_FOUND`, `ALREADY_EXISTS`, …); ``networkError`` and ``unexpectedResponse`` are
/// the SDK's own.
public struct AdminError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status, `nil` when no answer arrived.
    public var status: Int?
    /// The error code: the envelope's (see the type's description) or the SDK's own.
    public var code: String
    /// The server's detail, or what went wrong.
    public var message: String

    /// Makes an error from its parts.
    public init(status: Int?, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// The code when it is one of the Identity Toolkit codes Hearth declares.
    public var wireCode: WireErrorCode? { WireErrorCode(rawValue: code) }

    /// `code` of an error made when no HTTP answer arrived.
    public static let networkError = "NETWORK_ERROR"
    /// `code` of an error made when the answer could not be read.
    public static let unexpectedResponse = "UNEXPECTED_RESPONSE"

    /// `status code: message`.
    public var description: String {
        "\(status.map { "\($0) " } ?? "")\(code)\(message.isEmpty ? "" : ": \(message)")"
    }

    /// The error of a non-2xx answer, read from Google's envelope when there is one.
    init(response: HTTPResponse) {
        if let envelope = try? JSONDecoder().decode(GoogleErrorEnvelope.self, from: response.body) {
            let body = envelope.error
            if body.wireCode != nil || body.detail != nil || body.status == nil {
                self.init(status: response.status, code: body.errorCode, message: body.detail ?? "")
            } else {
                self.init(status: response.status, code: body.status ?? body.errorCode, message: body.message)
            }
        } else {
            self.init(
                status: response.status,
                code: Self.unexpectedResponse,
                message: String(decoding: response.body.prefix(200), as: UTF8.self)
            )
        }
    }
}
