/// When a token call records `lastSeen`. Recording on every call would turn the read-only
/// token path into a write per request; the sweeper only needs to know an installation was
/// seen within its inactivity window. So `lastSeen` is written only once it is older than a
/// tenth of that window, and never less often than hourly — a busy installation writes at
/// most once an hour.
public enum LastSeenPolicy {
    public static let maximumResolutionMilliseconds: Int64 = 3_600_000

    /// How stale `lastSeen` may grow before a call records a new one.
    public static func resolutionMilliseconds(inactivitySeconds: Int64) -> Int64 {
        max(1, min(maximumResolutionMilliseconds, inactivitySeconds * 1_000 / 10))
    }

    /// Whether a call at `now` should record itself over `lastSeen`.
    public static func shouldRecord(lastSeen: Int64, now: Int64, inactivitySeconds: Int64) -> Bool {
        now - lastSeen >= resolutionMilliseconds(inactivitySeconds: inactivitySeconds)
    }
}
