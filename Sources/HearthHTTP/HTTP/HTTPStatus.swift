/// An HTTP status code; the reason phrase is the server library's business.
public struct HTTPStatus: RawRepresentable, Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public var code: Int

    public init(code: Int) {
        precondition((100...599).contains(code), "HTTP status \(code) is out of range")
        self.code = code
    }

    public init?(rawValue: Int) {
        guard (100...599).contains(rawValue) else { return nil }
        code = rawValue
    }

    public init(integerLiteral value: Int) { self.init(code: value) }

    public var rawValue: Int { code }
    public var description: String { String(code) }

    /// Whether a response with this status may carry a body (not 1xx, 204 or 304).
    public var allowsBody: Bool { code >= 200 && code != 204 && code != 304 }

    public static let ok: HTTPStatus = 200
    public static let created: HTTPStatus = 201
    public static let noContent: HTTPStatus = 204
    public static let movedPermanently: HTTPStatus = 301
    public static let found: HTTPStatus = 302
    public static let seeOther: HTTPStatus = 303
    public static let notModified: HTTPStatus = 304
    public static let temporaryRedirect: HTTPStatus = 307
    public static let badRequest: HTTPStatus = 400
    public static let unauthorized: HTTPStatus = 401
    public static let forbidden: HTTPStatus = 403
    public static let notFound: HTTPStatus = 404
    public static let methodNotAllowed: HTTPStatus = 405
    public static let conflict: HTTPStatus = 409
    public static let gone: HTTPStatus = 410
    public static let contentTooLarge: HTTPStatus = 413
    public static let unsupportedMediaType: HTTPStatus = 415
    public static let tooManyRequests: HTTPStatus = 429
    public static let internalServerError: HTTPStatus = 500
    public static let notImplemented: HTTPStatus = 501
    public static let serviceUnavailable: HTTPStatus = 503
}
