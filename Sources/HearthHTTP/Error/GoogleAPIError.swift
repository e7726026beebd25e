import HearthBase

/// An error in the Google API envelope that Firebase clients parse:
///
///     {"error":{"code":400,"message":"EMAIL_NOT_FOUND",
///               "errors":[{"message":"EMAIL_NOT_FOUND","domain":"global","reason":"invalid"}],
///               "status":"INVALID_ARGUMENT"}}
///
/// Identity Toolkit answers with the `errors` list and Firebase Installations with `status`,
/// so each part can be left out per error (``withoutErrorsList()``, ``withoutStatus()``).
public struct GoogleAPIError: HTTPResponseError, Sendable, Equatable, CustomStringConvertible {
    /// The canonical error code (`google.rpc.Code`) as written in `status`.
    public struct Status: RawRepresentable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let invalidArgument = Status(rawValue: "INVALID_ARGUMENT")
        public static let failedPrecondition = Status(rawValue: "FAILED_PRECONDITION")
        public static let outOfRange = Status(rawValue: "OUT_OF_RANGE")
        public static let unauthenticated = Status(rawValue: "UNAUTHENTICATED")
        public static let permissionDenied = Status(rawValue: "PERMISSION_DENIED")
        public static let notFound = Status(rawValue: "NOT_FOUND")
        public static let aborted = Status(rawValue: "ABORTED")
        public static let alreadyExists = Status(rawValue: "ALREADY_EXISTS")
        public static let resourceExhausted = Status(rawValue: "RESOURCE_EXHAUSTED")
        public static let cancelled = Status(rawValue: "CANCELLED")
        public static let unimplemented = Status(rawValue: "UNIMPLEMENTED")
        public static let `internal` = Status(rawValue: "INTERNAL")
        public static let unavailable = Status(rawValue: "UNAVAILABLE")
        public static let deadlineExceeded = Status(rawValue: "DEADLINE_EXCEEDED")

        /// The HTTP status Google's APIs pair with this code.
        public var httpStatus: HTTPStatus {
            switch self {
            case .unauthenticated: .unauthorized
            case .permissionDenied: .forbidden
            case .notFound: .notFound
            case .aborted, .alreadyExists: .conflict
            case .resourceExhausted: .tooManyRequests
            case .cancelled: 499
            case .unimplemented: .notImplemented
            case .internal: .internalServerError
            case .unavailable: .serviceUnavailable
            case .deadlineExceeded: 504
            default: .badRequest
            }
        }
    }

    /// The HTTP status, also written as `code`.
    public var code: HTTPStatus
    public var message: String
    /// Written as `status` when present.
    public var status: Status?
    /// Written in the `errors` list when present.
    public var errorsList: ErrorsListEntry?
    /// Sent as the `Retry-After` header (seconds) when present: when a throttled caller may
    /// try again.
    public var retryAfterSeconds: Int64?

    /// The one entry of the `errors` list.
    public struct ErrorsListEntry: Sendable, Equatable {
        public var reason: String
        public var domain: String

        public init(reason: String, domain: String = "global") {
            self.reason = reason
            self.domain = domain
        }
    }

    /// An error with both the `errors` list (reason chosen from the code unless given) and
    /// `status`.
    public init(code: HTTPStatus, message: String, status: Status?, reason: String? = nil, domain: String = "global") {
        self.code = code
        self.message = message
        self.status = status
        self.errorsList = ErrorsListEntry(reason: reason ?? Self.defaultReason(for: code), domain: domain)
    }

    /// An error whose HTTP code follows from `status`.
    public init(_ status: Status, _ message: String) {
        self.init(code: status.httpStatus, message: message, status: status)
    }

    /// The same error without the `errors` list (Firebase Installations style).
    public func withoutErrorsList() -> GoogleAPIError {
        var copy = self
        copy.errorsList = nil
        return copy
    }

    /// The same error without `status` (Identity Toolkit style).
    public func withoutStatus() -> GoogleAPIError {
        var copy = self
        copy.status = nil
        return copy
    }

    public static func invalidArgument(_ message: String) -> GoogleAPIError {
        GoogleAPIError(.invalidArgument, message)
    }
    public static func failedPrecondition(_ message: String) -> GoogleAPIError {
        GoogleAPIError(.failedPrecondition, message)
    }
    public static func unauthenticated(_ message: String) -> GoogleAPIError {
        GoogleAPIError(.unauthenticated, message)
    }
    public static func permissionDenied(_ message: String) -> GoogleAPIError {
        GoogleAPIError(.permissionDenied, message)
    }
    public static func notFound(_ message: String) -> GoogleAPIError { GoogleAPIError(.notFound, message) }
    public static func alreadyExists(_ message: String) -> GoogleAPIError { GoogleAPIError(.alreadyExists, message) }
    public static func resourceExhausted(_ message: String) -> GoogleAPIError {
        GoogleAPIError(.resourceExhausted, message)
    }
    public static func unavailable(_ message: String) -> GoogleAPIError { GoogleAPIError(.unavailable, message) }
    /// The answer to an unexpected failure: says nothing about what failed.
    public static func `internal`(_ message: String = "INTERNAL") -> GoogleAPIError {
        GoogleAPIError(.internal, message)
    }

    /// The `errors[0].reason` Google uses for a status code.
    static func defaultReason(for code: HTTPStatus) -> String {
        switch code.code {
        case 401: "authError"
        case 403: "forbidden"
        case 404: "notFound"
        case 405: "httpMethodNotAllowed"
        case 409: "conflict"
        case 413: "uploadTooLarge"
        case 415: "unsupportedMediaType"
        case 429: "rateLimitExceeded"
        case 500...: "backendError"
        default: "invalid"
        }
    }

    /// The envelope's bytes.
    public var body: [UInt8] {
        var writer = JSONWriter(reservingCapacity: 160 + 2 * message.utf8.count)
        writer.beginObject()
        writer.key("error")
        writer.beginObject()
        writer.key("code")
        writer.int(Int64(code.code))
        writer.key("message")
        writer.string(message)
        if let entry = errorsList {
            writer.key("errors")
            writer.beginArray()
            writer.beginObject()
            writer.key("message")
            writer.string(message)
            writer.key("domain")
            writer.string(entry.domain)
            writer.key("reason")
            writer.string(entry.reason)
            writer.endObject()
            writer.endArray()
        }
        if let status {
            writer.key("status")
            writer.string(status.rawValue)
        }
        writer.endObject()
        writer.endObject()
        return writer.bytes
    }

    public func response() -> Response {
        var response = Response.json(bytes: body, status: code)
        if let retryAfterSeconds { response.headers.set("Retry-After", String(retryAfterSeconds)) }
        return response
    }

    /// The same error telling the caller to try again after `seconds`.
    public func retryingAfter(seconds: Int64?) -> GoogleAPIError {
        var copy = self
        copy.retryAfterSeconds = seconds
        return copy
    }

    public var description: String {
        "\(code.code) \(status?.rawValue ?? "-"): \(message)"
    }
}
