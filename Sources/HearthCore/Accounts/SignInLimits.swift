/// The abuse limits of the accounts area, counted in the store so they hold across nodes.
///
/// Wrong passwords slow the one who makes them rather than lock the account: failures are
/// counted per (account, client address) and per client address, each with its own
/// ``FailureBackoff``, so the owner's correct password from another address signs in while
/// an attacker hammers the account. Failures per account across all addresses (a distributed
/// attack) never refuse an attempt by themselves: once `failuresPerAccount` is used up they take
/// away the free failures of every (account, address) pair, so each address that has failed
/// on the account is slowed from its first failure on, while an address that has not (the
/// owner's) is not slowed at all. A success clears the (account, address) failures only.
/// Sign-ups follow Firebase's published quota of 100 new accounts per hour per IP address.
public struct SignInLimits: Sendable, Equatable {
    /// Failed sign-ins per account (project + email) and client address, whether or not the
    /// account exists: 5 free, then 1 s doubling up to 15 min, remembered for a day (at the cap
    /// about 100 guesses a day per address and account).
    public var failuresPerAccountAndClient: FailureBackoff
    /// Failed sign-ins per client address and project, across accounts (credential stuffing):
    /// 100 free, then 1 s doubling up to a minute, remembered for an hour.
    public var failuresPerClient: FailureBackoff
    /// Failed sign-ins per account across all addresses: 50 a day, past which the account
    /// counts as under attack.
    public var failuresPerAccount: RateLimit
    /// New accounts per client IP address and project (client sign-ups only; admins are free).
    public var signUpsPerClient: RateLimit

    public init(
        failuresPerAccountAndClient: FailureBackoff = FailureBackoff(
            name: "signin-backoff-account-ip",
            freeFailures: 5,
            schedule: RetrySchedule(baseMilliseconds: 1_000, maximumMilliseconds: 900_000),
            memorySeconds: 86_400
        ),
        failuresPerClient: FailureBackoff = FailureBackoff(
            name: "signin-backoff-ip",
            freeFailures: 100,
            schedule: RetrySchedule(baseMilliseconds: 1_000, maximumMilliseconds: 60_000),
            memorySeconds: 3_600
        ),
        failuresPerAccount: RateLimit = RateLimit(name: "signin-failure-account", limit: 50, windowSeconds: 86_400),
        signUpsPerClient: RateLimit = RateLimit(name: "signup-ip", limit: 100, windowSeconds: 3_600)
    ) {
        self.failuresPerAccountAndClient = failuresPerAccountAndClient
        self.failuresPerClient = failuresPerClient
        self.failuresPerAccount = failuresPerAccount
        self.signUpsPerClient = signUpsPerClient
    }
}
