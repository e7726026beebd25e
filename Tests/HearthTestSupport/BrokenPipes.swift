#if canImport(Glibc)
    import Glibc
#endif

/// Makes a write to a socket or pipe whose other end has closed fail with `EPIPE` instead of
/// killing the whole test process with `SIGPIPE` (as `hearth serve` does at start). OpenSSL's
/// TLS writes inside libcurl (the SMTP tests) and children's pipes can raise it; with
/// `CURLOPT_NOSIGNAL` libcurl leaves the signal alone, as a library in a threaded process must.
public func ignoreBrokenPipes() {
    _ = brokenPipesIgnored
}

private let brokenPipesIgnored: Void = {
    signal(SIGPIPE, SIG_IGN)
}()
