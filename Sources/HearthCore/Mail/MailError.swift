/// Why an email cannot be composed or queued. The HTTP layer answers it as a 400.
public struct MailError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// A recipient or sender that is not a usable mailbox.
        case invalidAddress
        /// A value the template needs (the link of an action email) was not given.
        case missingValue
        /// An action link that is not an absolute http(s) URL.
        case invalidLink
        /// A template (an override) that cannot be used.
        case invalidTemplate
        /// Delivery settings (an SMTP URL) that cannot be used.
        case invalidSettings
        /// A sealed value of a queued message that does not open (another master key, or
        /// moved between rows).
        case sealedValue
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    public static func invalidAddress(_ text: String) -> MailError {
        MailError(.invalidAddress, "\"\(text.prefix(100))\" is not a valid email address")
    }
}
