import Glibc
import HearthBase

/// The process's limit of open files (`RLIMIT_NOFILE`), which bounds the connections it can
/// hold: Debian's default soft limit (1,024) is far below a connection limit of 10,000.
enum DescriptorLimit {
    /// Descriptors the server needs besides its connections: listening sockets, the store's
    /// files, lingering sockets, pipes, logs.
    static let reserve = 1_024

    /// Raises the soft limit to hold `connections` connections plus ``reserve``, as far as the
    /// hard limit allows; says in `log` when it cannot.
    static func raise(toServe connections: Int, log: Log) {
        var current = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &current) == 0 else { return }
        let needed = rlim_t(max(0, connections) + reserve)
        guard current.rlim_cur < needed else { return }
        var raised = current
        raised.rlim_cur = min(needed, current.rlim_max)
        let applied = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0
        if !applied || raised.rlim_cur < needed {
            log.warning(
                "the open-file limit is below what the connection limit needs",
                [
                    "needed": .int(Int64(needed)),
                    "limit": .int(Int64(applied ? raised.rlim_cur : current.rlim_cur)),
                    "hint": "raise the hard limit (ulimit -Hn, systemd LimitNOFILE=) or lower --connection-limit",
                ]
            )
        }
    }
}
