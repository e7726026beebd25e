/// The abuse limits of the accounts area, counted in the store so they hold across nodes.
///
/// Firebase publishes no numbers for its sign-in lockout; these follow OWASP's advice (lock an
/// account after a handful of failures for some minutes) and Firebase's published quota of 100
/// new accounts per hour per IP address. A success clears the account's failures.
public struct SignInLimits: Sendable, Equatable {
    /// Failed sign-ins per account (project + email), whether or not the account exists.
    public var failuresPerAccount: RateLimit
    /// Failed sign-ins per client IP address and project.
    public var failuresPerClient: RateLimit
    /// New accounts per client IP address and project (client sign-ups only; admins are free).
    public var signUpsPerClient: RateLimit

    public init(
        failuresPerAccount: RateLimit = RateLimit(name: "signin-failure-account", limit: 10, windowSeconds: 900),
        failuresPerClient: RateLimit = RateLimit(name: "signin-failure-ip", limit: 100, windowSeconds: 900),
        signUpsPerClient: RateLimit = RateLimit(name: "signup-ip", limit: 100, windowSeconds: 3_600)
    ) {
        self.failuresPerAccount = failuresPerAccount
        self.failuresPerClient = failuresPerClient
        self.signUpsPerClient = signUpsPerClient
    }
}
