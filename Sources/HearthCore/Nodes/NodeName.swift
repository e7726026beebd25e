import HearthCrypto

#if canImport(Glibc)
    import Glibc
#endif

/// Names that tell one running Hearth apart from every other on the same database: in lease
/// rows and queue claims.
public enum NodeName {
    /// `host/pid/random`: the host and process for whoever reads a row or a log line, and a
    /// random part because neither is unique (a restarted container is often pid 1 again on a
    /// reused host name, and tests run several nodes in one process).
    public static func make() -> String {
        var host = [UInt8](repeating: 0, count: 256)
        gethostname(&host, host.count - 1)
        let hostName = String(decoding: host.prefix { $0 != 0 }, as: UTF8.self)
        return "\(hostName)/\(getpid())/\(Hex.encode(SecureRandom.bytes(count: 4)))"
    }
}
