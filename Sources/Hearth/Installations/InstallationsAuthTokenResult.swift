public import Foundation

/// An installation auth token and when it expires.
public final class InstallationsAuthTokenResult: Sendable {
    /// The token: a JWT to send to back ends that check installations.
    public let authToken: String
    /// When the token stops being valid, in this device's time.
    public let expirationDate: Date

    init(authToken: String, expirationDate: Date) {
        self.authToken = authToken
        self.expirationDate = expirationDate
    }
}
