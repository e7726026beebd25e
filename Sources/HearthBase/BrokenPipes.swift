#if canImport(Glibc)
    import Glibc
#endif

/// Process-wide: a write to a socket or pipe whose other end has gone fails with `EPIPE`
/// instead of killing the process with `SIGPIPE`. Servers need this (libmicrohttpd's
/// documentation asks for it, and OpenSSL's TLS writes inside libcurl can raise the signal
/// when libcurl is told not to touch signals, as a threaded process must). Idempotent.
public enum BrokenPipes {
    public static func ignore() {
        _ = ignored
    }

    private static let ignored: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()
}
