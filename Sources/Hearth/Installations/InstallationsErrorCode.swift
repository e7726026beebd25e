/// An error of ``Installations``, spelled as FirebaseInstallations' `InstallationsErrorCode`
/// so that `catch InstallationsErrorCode.serverUnreachable` reads the same.
public struct InstallationsErrorCode: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Int, Sendable {
        /// Any failure not listed below, including an unexpected answer from Hearth.
        case unknown = 0
        /// The installation entry could not be read or written (Keychain or data file).
        case keychain = 1
        /// Hearth could not be reached, or the SDK is backing off after failed requests.
        case serverUnreachable = 2
        /// The app's options are incomplete or Hearth refused them (API key, app ID, project).
        case invalidConfiguration = 3
    }

    /// A failure not listed among the codes.
    public static let unknown = Code.unknown
    /// The installation entry could not be read or written.
    public static let keychain = Code.keychain
    /// Hearth could not be reached, or the SDK is backing off.
    public static let serverUnreachable = Code.serverUnreachable
    /// The options are incomplete or Hearth refused them.
    public static let invalidConfiguration = Code.invalidConfiguration

    /// What went wrong.
    public let code: Code
    /// A sentence for a developer: what failed and, for an HTTP answer, its status and message.
    public let message: String
    /// The HTTP status of Hearth's answer, when there was one.
    public let httpStatus: Int?

    init(_ code: Code, _ message: String, httpStatus: Int? = nil) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
    }

    /// The code and the message.
    public var description: String { "InstallationsErrorCode.\(code): \(message)" }
}

extension InstallationsErrorCode.Code {
    /// Matches an error against a code, so that `catch InstallationsErrorCode.<code>` catches it.
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? InstallationsErrorCode)?.code == code
    }
}
