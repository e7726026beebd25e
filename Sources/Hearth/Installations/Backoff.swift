import Foundation

/// When the next Installations request may go out after failures (PRODUCT.md §5).
///
/// * a recoverable failure (429, 5xx, any other unexpected status) waits 2^n seconds plus up
///   to a second of jitter, n being the count of consecutive recoverable failures, at most
///   30 minutes;
/// * an unrecoverable failure (400, 403: the request or the configuration is wrong and
///   repeating it cannot help) waits 24 hours;
/// * a success, and the 401/404 answers that mean the installation is gone, clear it.
///
/// Transport failures (no answer at all) do not count: the request never reached Hearth.
struct Backoff: Sendable {
    enum Outcome: Equatable, Sendable {
        case success
        case recoverableFailure
        case unrecoverableFailure

        /// The outcome an HTTP status stands for.
        init(status: Int) {
            switch status {
            case 200..<300, 401, 404: self = .success
            case 400, 403: self = .unrecoverableFailure
            default: self = .recoverableFailure
            }
        }
    }

    static let maximumRecoverableWait: TimeInterval = 30 * 60
    static let unrecoverableWait: TimeInterval = 24 * 60 * 60

    private var lastOutcome: Outcome?
    private var consecutive = 0
    /// No request before this instant.
    private(set) var nextAllowed: Date?

    /// Whether a request may be sent at `now`.
    func allowsRequest(at now: Date) -> Bool {
        guard let nextAllowed else { return true }
        return now >= nextAllowed
    }

    /// Records the outcome of a request answered at `now`. `jitter` is in 0 ..< 1 s.
    mutating func record(_ outcome: Outcome, at now: Date, jitter: TimeInterval) {
        consecutive = outcome == lastOutcome ? consecutive + 1 : 1
        lastOutcome = outcome
        switch outcome {
        case .success:
            nextAllowed = nil
        case .recoverableFailure:
            let exponential = pow(2, Double(min(consecutive, 20))) + jitter
            nextAllowed = now.addingTimeInterval(min(exponential, Self.maximumRecoverableWait))
        case .unrecoverableFailure:
            nextAllowed = now.addingTimeInterval(Self.unrecoverableWait)
        }
    }
}
